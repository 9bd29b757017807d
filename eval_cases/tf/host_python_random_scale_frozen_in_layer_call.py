"""Source: https://github.com/tensorflow/tensorflow/issues/108266 (a Keras layer draws a size with Python's `random.randint()` inside `call`; the draw runs once at trace time, so the compiled model keeps the first value while eager execution draws a new one per call)."""
import random

import tensorflow as tf


class RandomGainAugment(tf.keras.layers.Layer):
    def call(self, x, training=True):
        if training:
            gain = random.randint(8, 12) / 10.0  # XLA: host
            x = x * gain
        return x


class Denoiser(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.augment = RandomGainAugment()
        self.dense = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.dense(self.augment(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    model = Denoiser()
    _KEEP.append(model)
    x = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0
    return model, (x,)


def ALT_ARGS():
    x = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0
    return [(x,), (x,), (x,)]
