"""Source: https://github.com/tensorflow/tensorflow/issues/33152 (Keras model on TPU failed to compile on the Unique op; on XLA:CPU with TF 2.21 the same de-duplication with tf.unique before an embedding gather compiles: labelled by the compiler)."""
import tensorflow as tf


class DedupEmbedding(tf.keras.layers.Layer):
    def __init__(self, vocab, dim, **kwargs):
        super().__init__(**kwargs)
        self.table = self.add_weight(name="table", shape=(vocab, dim), initializer="uniform")

    def call(self, ids):
        flat = tf.reshape(ids, [-1])
        unique_ids, position = tf.unique(flat)
        rows = tf.gather(self.table, unique_ids)
        return tf.reshape(tf.gather(rows, position), tf.concat([tf.shape(ids), [-1]], axis=0))


model = tf.keras.Sequential([DedupEmbedding(50, 8), tf.keras.layers.GlobalAveragePooling1D(), tf.keras.layers.Dense(2)])


def predict(ids):
    return model(ids)


# --- oracle ---
def ENTRY():
    return predict, (tf.constant([[3, 7, 3, 1], [7, 7, 2, 9]]),)
