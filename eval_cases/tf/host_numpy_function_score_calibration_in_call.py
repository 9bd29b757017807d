"""Source: https://github.com/tensorflow/tensorflow/issues/108069 (a model calls `tf.numpy_function` in `call` to run a NumPy post-processing step; under jit_compile the PyFunc has no XLA kernel and its output has an unknown shape, so the next Dense layer fails)."""
import numpy as np
import tensorflow as tf


def _calibrate(scores, temperature):
    return (scores / temperature).astype(np.float32)


class CalibratedScorer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="relu")
        self.out = tf.keras.layers.Dense(2)

    def call(self, x):
        h = self.hidden(x)
        h = tf.numpy_function(_calibrate, [h, tf.constant(2.0)], tf.float32)  # XLA: host
        return self.out(h)


# --- oracle ---
_KEEP = []


def ENTRY():
    model = CalibratedScorer()
    _KEEP.append(model)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0
    return model, (x,)
