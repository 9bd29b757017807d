"""Source: https://github.com/tensorflow/tensorflow/pull/123112 (near miss, compiles on TF 2.21 XLA:CPU: sequence_mask fails under JIT/XLA when maxlen is not an integer tensor): maxlen computed as a float budget."""
import tensorflow as tf


@tf.function(jit_compile=True)
def budget_mask(lengths, scores):
    maxlen = tf.cast(tf.shape(scores)[1], tf.float32) * 0.5
    mask = tf.sequence_mask(lengths, maxlen=maxlen)
    return tf.reduce_sum(tf.cast(mask, tf.float32), axis=1)


# --- oracle ---
def ENTRY():
    return budget_mask, (tf.constant([1, 3]), tf.ones([2, 8]))
