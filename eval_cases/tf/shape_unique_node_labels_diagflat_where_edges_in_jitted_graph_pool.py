"""Source: https://github.com/openxla/xla/issues/44941 ("XLA compilation (jit_compile=True) aborts ... when compiling tf.where on the result of diagflat(tf.unique(...))": the data-dependent size of `tf.unique` flows through `tf.experimental.numpy.diagflat` into a one-argument `tf.where`; on TF 2.21 CPU the XLA phase still dies, labelled crash). Here a graph-pooling layer deduplicates the cluster ids of a batch of nodes, builds a diagonal self-loop matrix over the surviving clusters, and reads its non-zero coordinates with `tf.where` inside a jit-compiled function."""
import tensorflow as tf

tnp = tf.experimental.numpy


class ClusterSelfLoops(tf.keras.layers.Layer):
    def call(self, cluster_ids, node_features):
        clusters, _ = tf.unique(cluster_ids)
        weights = tf.sqrt(tf.cast(clusters, tf.float32))
        loops = tnp.diagflat(weights)
        edges = tf.where(loops)  # XLA: shape
        return edges


layer = ClusterSelfLoops()


@tf.function(jit_compile=True)
def pool_edges(cluster_ids, node_features):
    return layer(cluster_ids, node_features)


# --- oracle ---
def ENTRY():
    ids = tf.constant([1, 2, 2, 3, 3, 3, 5])
    feats = tf.reshape(tf.range(7 * 4, dtype=tf.float32), [7, 4]) / 28.0
    return pool_edges, (ids, feats)
