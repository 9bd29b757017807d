"""Source: https://github.com/tensorflow/tensorflow/issues/25068 (TF1 XLA recompiled the graph for every length of a tf.boolean_mask result; with jit_compile the selection becomes a bounded dynamic dimension, so a different number of selected records does not recompile)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def relevant_record_score(records, relevance):
    selected = tf.boolean_mask(records, relevance > 0.5)
    return tf.reduce_sum(selected, axis=0) / tf.maximum(tf.reduce_sum(tf.cast(relevance > 0.5, tf.float32)), 1.0)


# --- oracle ---
def ENTRY():
    records = tf.reshape(tf.range(15, dtype=tf.float32), [5, 3])
    return relevant_record_score, (records, tf.constant([0.9, 0.1, 0.8, 0.3, 0.7]))


def ALT_ARGS():
    records = tf.reshape(tf.range(15, dtype=tf.float32), [5, 3])
    return [(records, tf.constant([0.1, 0.1, 0.8, 0.3, 0.2])), (records, tf.constant([0.9, 0.9, 0.8, 0.6, 0.7]))]
