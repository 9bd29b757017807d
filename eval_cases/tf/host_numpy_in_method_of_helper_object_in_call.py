"""Source: https://github.com/kidzik/event-detector/issues/3 (NumPy in a utility that model code calls fails on symbolic tensors, fixed with the tf op; here the utility is a method of a plain helper object that a layer stores and calls from call())."""
import numpy as np
import tensorflow as tf


class TopKPooler:
    def __init__(self, k):
        self.k = k

    def pool(self, scores):
        top = np.sort(scores, axis=-1)[:, -self.k:]  # XLA: host
        return tf.reduce_mean(top, axis=-1)


class Scorer(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.score = tf.keras.layers.Dense(6)
        self.pooler = TopKPooler(2)

    def call(self, x):
        return self.pooler.pool(self.score(x))


layer = Scorer()


def forward(x):
    return layer(x)


# --- oracle ---
def ENTRY():
    return forward, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0,)
