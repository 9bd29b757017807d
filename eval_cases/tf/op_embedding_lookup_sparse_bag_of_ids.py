"""Source: https://github.com/tensorflow/tensorflow/issues/55696 ("tf.nn.embedding_lookup_sparse doesn't work with @tf.function(jit_compile=True)": an embedding bag over sparse ids inside the compiled function)."""
import tensorflow as tf


class EmbeddingBag(tf.keras.layers.Layer):
    def __init__(self, vocab, dim, **kwargs):
        super().__init__(**kwargs)
        self.table = self.add_weight(name="table", shape=(vocab, dim), initializer="uniform")

    def call(self, ids, valid):
        sp_ids = tf.sparse.from_dense(tf.where(valid, ids, -1))
        sp_ids = tf.sparse.retain(sp_ids, sp_ids.values >= 0)
        return tf.nn.embedding_lookup_sparse(self.table, sp_ids, None, combiner="sum")  # XLA: op


bag = EmbeddingBag(10, 4)


@tf.function(jit_compile=True)
def embed(ids, valid):
    return bag(ids, valid)


# --- oracle ---
def ENTRY():
    return embed, (tf.constant([[1, 2, 0], [3, 0, 0]]), tf.constant([[True, True, False], [True, False, False]]))
