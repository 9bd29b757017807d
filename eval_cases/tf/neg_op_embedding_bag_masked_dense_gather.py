"""Source: https://github.com/tensorflow/tensorflow/issues/55696 (the dense workaround for embedding_lookup_sparse under XLA: gather padded ids and sum with a mask; no sparse op reaches the compiler)."""
import tensorflow as tf


class EmbeddingBag(tf.keras.layers.Layer):
    def __init__(self, vocab, dim, **kwargs):
        super().__init__(**kwargs)
        self.table = self.add_weight(name="table", shape=(vocab, dim), initializer="uniform")

    def call(self, ids, valid):
        vectors = tf.gather(self.table, ids)
        return tf.reduce_sum(vectors * tf.cast(valid, vectors.dtype)[..., None], axis=1)


bag = EmbeddingBag(10, 4)


@tf.function(jit_compile=True)
def embed(ids, valid):
    return bag(ids, valid)


# --- oracle ---
def ENTRY():
    return embed, (tf.constant([[1, 2, 0], [3, 0, 0]]), tf.constant([[True, True, False], [True, False, False]]))
