"""Source: https://github.com/tensorflow/tensorflow/issues/52905 (tf.repeat fails under jit_compile when repeats is a tensor computed in the function)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def oversample(features, weights):
    counts = tf.cast(tf.round(weights * 3.0), tf.int32)
    expanded = tf.repeat(features, counts, axis=0)  # XLA: shape
    return tf.reduce_mean(expanded, axis=0)


# --- oracle ---
def ENTRY():
    features = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    weights = tf.constant([1.0, 0.34, 0.67])
    return oversample, (features, weights)
