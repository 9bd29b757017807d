"""Source: https://github.com/tensorflow/tensorflow/issues/60805 (an exception in tf.cond from an operation in the inactive branch: the reshape to a scalar is traced for every input)."""
import tensorflow as tf


def broadcast_if_scalar_like(x):
    return tf.cond(tf.size(x) == 1,  # XLA: cond
                   lambda: tf.fill(tf.shape(x), tf.reshape(x, ())),
                   lambda: x)


# --- oracle ---
def ENTRY():
    return broadcast_if_scalar_like, (tf.constant([1, 2]),)
