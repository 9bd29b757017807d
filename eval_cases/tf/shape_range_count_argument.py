"""Source: https://github.com/tensorflow/tensorflow/issues/30235 (tf.range(count) with count an argument of the compiled function: "Argument to function must be a compile-time constant")."""
import tensorflow as tf


@tf.function(jit_compile=True)
def arange_positions(count, offset):
    return tf.range(count) + offset  # XLA: shape


# --- oracle ---
def ENTRY():
    return arange_positions, (tf.constant(5), tf.constant(2))
