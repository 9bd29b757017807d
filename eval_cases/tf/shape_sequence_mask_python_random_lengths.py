"""Source: https://github.com/tensorflow/tensorflow/issues/105648 (the mask lengths are drawn with Python's random while tracing, so the compiled model reuses one draw while eager code draws anew: compiled results differ)."""
import random

import tensorflow as tf


class TestModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(100, 8)
        self.dense = tf.keras.layers.Dense(4)

    def call(self, x):
        embedded = self.embedding(x)
        lengths = tf.constant([random.randint(1, x.shape[1]) for _ in range(x.shape[0])])  # XLA: shape
        mask = tf.sequence_mask(lengths, maxlen=x.shape[1])
        embedded = embedded * tf.cast(mask[:, :, None], embedded.dtype)
        return self.dense(tf.reduce_sum(embedded, axis=1))


# --- oracle ---
_KEEP = []


def ENTRY():
    m = TestModel()
    _KEEP.append(m)
    return m, (tf.constant([[5, 6, 7, 8], [1, 2, 3, 4]]),)
