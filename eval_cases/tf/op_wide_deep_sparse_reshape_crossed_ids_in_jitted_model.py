"""Source: https://github.com/tensorflow/tensorflow/issues/30820 ("Can xla compile tf.estimator.DNNLinearCombinedEstimator?": the wide part's feature-column embedding of sparse ids goes through `SparseReshape`, which has "no registered kernels" for XLA, so the model cannot be compiled). Here a wide-and-deep click model whose wide part reshapes a sparse id tensor and combines it with `tf.nn.safe_embedding_lookup_sparse`, under `jit_compile`."""
import tensorflow as tf

NUM_IDS = 50


class WideAndDeep(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.wide_weights = tf.Variable(tf.random.stateless_normal([NUM_IDS, 1], seed=[5, 6]) * 0.1)
        self.deep = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])

    def call(self, dense_features, id_indices, id_values):
        ids = tf.sparse.SparseTensor(id_indices, id_values, dense_shape=[2, 2, 2])
        ids = tf.sparse.reshape(ids, [2, 4])  # XLA: op
        wide = tf.nn.safe_embedding_lookup_sparse(self.wide_weights, ids, combiner="sum")
        return tf.sigmoid(wide + self.deep(dense_features))


model = WideAndDeep()


@tf.function(jit_compile=True)
def predict(dense_features, id_indices, id_values):
    return model(dense_features, id_indices, id_values)


# --- oracle ---
WRAP = False


def ENTRY():
    dense = tf.constant([[0.2, 0.5, 0.1], [0.9, 0.3, 0.4]])
    indices = tf.constant([[0, 0, 0], [0, 1, 1], [1, 0, 1]], tf.int64)
    return predict, (dense, indices, tf.constant([3, 17, 42], tf.int64))
