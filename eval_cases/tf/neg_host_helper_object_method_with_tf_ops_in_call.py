"""Source: https://github.com/kidzik/event-detector/issues/3 (the fix: the helper object's pooling method uses tf.math.top_k instead of NumPy, and compiles)."""
import tensorflow as tf


class TopKPooler:
    def __init__(self, k):
        self.k = k

    def pool(self, scores):
        top, _ = tf.math.top_k(scores, k=self.k)
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
