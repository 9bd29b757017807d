"""Source: https://github.com/tensorflow/tensorflow/issues/60805 (near miss: both branches are valid for every input, reading the first element instead of reshaping to a scalar)."""
import tensorflow as tf


def broadcast_if_scalar_like(x):
    return tf.cond(tf.size(x) == 1,
                   lambda: tf.fill(tf.shape(x), x[0]),
                   lambda: x)


# --- oracle ---
def ENTRY():
    return broadcast_if_scalar_like, (tf.constant([1, 2]),)
