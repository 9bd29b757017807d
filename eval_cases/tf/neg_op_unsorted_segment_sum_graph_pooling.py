"""Source: https://github.com/tensorflow/tensorflow/issues/50713 (near miss from the report: unsorted_segment_sum with a static num_segments works under jit_compile)."""
import tensorflow as tf

MAX_GRAPHS = 2


@tf.function(jit_compile=True)
def graph_readout(node_features, graph_ids):
    return tf.math.unsorted_segment_sum(node_features, graph_ids, num_segments=MAX_GRAPHS)


# --- oracle ---
def ENTRY():
    nodes = tf.reshape(tf.range(10, dtype=tf.float32), [5, 2])
    return graph_readout, (nodes, tf.constant([0, 0, 1, 1, 1]))
