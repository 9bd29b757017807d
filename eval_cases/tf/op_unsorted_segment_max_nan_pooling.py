"""Source: https://github.com/tensorflow/tensorflow/issues/118375 (XLA returns a different result for unsorted_segment_max when a segment holds NaN): max-pooling node scores per graph."""
import math

import tensorflow as tf


@tf.function(jit_compile=True)
def max_pool_scores(scores, graph_ids):
    return tf.math.unsorted_segment_max(scores, graph_ids, num_segments=2)  # XLA: op


# --- oracle ---
def ENTRY():
    scores = tf.constant([7.0, math.nan, 2.0, 9.0, 4.0, 6.0])
    return max_pool_scores, (scores, tf.constant([0, 0, 0, 1, 1, 1]))
