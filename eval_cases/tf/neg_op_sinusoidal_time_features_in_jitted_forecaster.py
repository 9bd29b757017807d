"""Source: https://github.com/tensorflow/tensorflow/issues/11822 ("tfcompile of tf.sin and tf.cos": XLA_CPU_JIT had no `Sin`/`Cos` kernels, so graphs with trigonometric features could not be compiled). This no longer reproduces on TF 2.21 CPU. A forecaster that adds sinusoidal time-of-day features to its inputs inside a jit-compiled forward pass."""
import math

import tensorflow as tf


class Forecaster(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    @tf.function(jit_compile=True)
    def call(self, values, hour):
        angle = 2.0 * math.pi * hour / 24.0
        features = tf.concat([values, tf.sin(angle), tf.cos(angle)], axis=-1)
        return self.dense(features)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = Forecaster()
    _KEEP.append(m)
    values = tf.reshape(tf.range(4 * 3, dtype=tf.float32), [4, 3]) / 12.0
    hour = tf.constant([[0.0], [6.0], [12.0], [18.0]])
    return m, (values, hour)
