"""Source: https://github.com/tensorflow/tensorflow/issues/105145 (fix: build the causal mask from the static sequence length `x.shape[1]` (a Python int) or with tf.linalg.band_part; NumPy then runs once at trace time on a Python value)."""
import numpy as np
import tensorflow as tf


class CausalSelfAttention(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(50, 8)
        self.qk = tf.keras.layers.Dense(16)

    def call(self, ids):
        x = self.embedding(ids)
        q, k = tf.split(self.qk(x), 2, axis=-1)
        q_len = x.shape[1]
        causal = tf.constant(np.tril(np.ones((q_len, q_len), dtype=np.float32)))
        scores = tf.matmul(q, k, transpose_b=True) - 1e9 * (1.0 - causal)
        return tf.matmul(tf.nn.softmax(scores), x)


model = CausalSelfAttention()


def forward(ids):
    return model(ids)


# --- oracle ---
def ENTRY():
    return forward, (tf.constant([[3, 7, 1, 9], [2, 2, 5, 0]]),)
