"""Source: https://github.com/tensorflow/tensorflow/issues/74131 ("tf.sparse.reduce_sum error in JIT": a custom layer that sums a SparseTensor passes its unit tests eagerly but fails once Keras compiles predict/train with XLA)."""
import tensorflow as tf


class BagOfCountsPooling(tf.keras.layers.Layer):
    def call(self, counts):
        sparse = tf.sparse.from_dense(counts)
        return tf.sparse.reduce_sum(sparse, axis=1)  # XLA: op


layer = BagOfCountsPooling()


@tf.function(jit_compile=True)
def pooled(counts):
    return layer(counts)


# --- oracle ---
def ENTRY():
    return pooled, (tf.constant([[9, 1, 0], [0, 9, 1], [1, 0, 0], [0, 0, 9]]),)
