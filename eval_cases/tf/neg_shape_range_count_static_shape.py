"""Source: https://github.com/tensorflow/tensorflow/issues/30235 (near miss from the report: the count is known at trace time, here the static length of the input)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def arange_positions(tokens, offset):
    return tf.range(tokens.shape[-1]) + offset


# --- oracle ---
def ENTRY():
    return arange_positions, (tf.constant([[4, 5, 6, 7, 8]]), tf.constant(2))
