"""Source: https://github.com/openxla/xla/issues/43451 (tf.where applied to the output of a data-dependent compress under jit_compile failed at run time on GPU with "Buffers have different size"; boolean_mask followed by tf.where compiles and matches eager on TF 2.21 XLA:CPU)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def positive_anchor_indices(scores, keep):
    kept = tf.boolean_mask(scores, keep)
    return tf.where(kept > 0.5)


# --- oracle ---
def ENTRY():
    scores = tf.constant([0.9, 0.2, 0.7, 0.1, 0.8, 0.6])
    keep = tf.constant([True, False, True, True, False, True])
    return positive_anchor_indices, (scores, keep)
