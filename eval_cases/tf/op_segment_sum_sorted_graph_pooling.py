"""Source: https://github.com/tensorflow/tensorflow/issues/50713 (tf.math.segment_sum is reported as a missing op under XLA, while unsorted_segment_sum works): graph readout over sorted node segments."""
import tensorflow as tf


@tf.function(jit_compile=True)
def graph_readout(node_features, graph_ids):
    return tf.math.segment_sum(node_features, graph_ids)  # XLA: op


# --- oracle ---
def ENTRY():
    nodes = tf.reshape(tf.range(10, dtype=tf.float32), [5, 2])
    return graph_readout, (nodes, tf.constant([0, 0, 1, 1, 1]))
