"""Source: https://github.com/tensorflow/tensorflow/issues/39144 (experimental_compile on a function that calls tf.strings.split: "Function invoked by the following node is not compilable")."""
import tensorflow as tf


@tf.function(jit_compile=True)
def count_fields(lines):
    fields = tf.strings.split(lines, " ")  # XLA: op
    return fields.row_lengths()


# --- oracle ---
def ENTRY():
    return count_fields, (tf.constant(["1 2", "3 4 5"]),)
