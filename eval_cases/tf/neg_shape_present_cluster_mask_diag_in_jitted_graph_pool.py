"""Source: https://github.com/openxla/xla/issues/44941 (a `tf.unique` -> `diagflat` -> one-argument `tf.where` chain gives data-dependent shapes that XLA mishandles). The static-shape form used here: the pooling layer marks which of a fixed number of clusters are present with `tf.one_hot` + `reduce_max` and returns the dense diagonal self-loop matrix, so every shape is known at compile time."""
import tensorflow as tf


class ClusterSelfLoops(tf.keras.layers.Layer):
    def __init__(self, num_clusters):
        super().__init__()
        self.num_clusters = num_clusters

    def call(self, cluster_ids, node_features):
        present = tf.reduce_max(tf.one_hot(cluster_ids, self.num_clusters), axis=0)
        weights = present * tf.sqrt(tf.range(self.num_clusters, dtype=tf.float32))
        return tf.linalg.diag(weights)


layer = ClusterSelfLoops(8)


@tf.function(jit_compile=True)
def pool_edges(cluster_ids, node_features):
    return layer(cluster_ids, node_features)


# --- oracle ---
def ENTRY():
    ids = tf.constant([1, 2, 2, 3, 3, 3, 5])
    feats = tf.reshape(tf.range(7 * 4, dtype=tf.float32), [7, 4]) / 28.0
    return pool_edges, (ids, feats)
