"""Source: https://github.com/tensorflow/tensorflow/issues/49469 ("tf.range not works with fixed input parameter on TPU": `tf.range` with a fixed length reported not to compile with XLA). Does not reproduce on TF 2.21 CPU: a `tf.range` whose limit is a Python constant (or a static dimension) folds to a constant and compiles. Here a transformer encoder builds its position ids with `tf.range(self.max_len)` inside a jit-compiled call."""
import tensorflow as tf


class PositionalEncoder(tf.keras.layers.Layer):
    def __init__(self, max_len, dim):
        super().__init__()
        self.max_len = max_len
        self.pos = tf.keras.layers.Embedding(max_len, dim)
        self.pos.build((None,))

    def call(self, tokens):
        positions = tf.range(self.max_len)
        return tokens + self.pos(positions)[None]


encoder = PositionalEncoder(max_len=6, dim=4)


@tf.function(jit_compile=True)
def encode(tokens):
    return encoder(tokens)


# --- oracle ---
def ENTRY():
    return encode, (tf.reshape(tf.range(2 * 6 * 4, dtype=tf.float32), [2, 6, 4]) / 48.0,)
