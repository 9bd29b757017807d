"""Source: https://github.com/tensorflow/tensorflow/issues/74131 (tf.sparse.reduce_sum error in JIT: a layer that passes its tests fails in predict/train with jit compilation), here the TF1 name tf.compat.v1.sparse_reduce_sum in a bag-of-words encoder compiled with jit_compile=True."""
import tensorflow as tf


class BagOfWords(tf.keras.layers.Layer):
    def __init__(self, vocab=6, dim=3):
        super().__init__()
        self.table = tf.keras.layers.Embedding(vocab, dim)

    def call(self, ids):
        mask = tf.sparse.from_dense(tf.cast(ids > 0, tf.float32))
        counts = tf.compat.v1.sparse_reduce_sum(mask, axis=1, keepdims=True)  # XLA: op
        return tf.reduce_sum(self.table(ids), axis=1) / tf.maximum(counts, 1.0)


encoder = BagOfWords()


@tf.function(jit_compile=True)
def encode(ids):
    return encoder(ids)


# --- oracle ---
def ENTRY():
    return encode, (tf.constant([[1, 2, 0, 0], [3, 0, 0, 0]]),)
