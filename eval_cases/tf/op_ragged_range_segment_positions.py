"""Source: https://github.com/tensorflow/tensorflow/issues/122046 (tf.ragged.range lowers to RaggedRange, which has no XLA_CPU_JIT kernel): positions inside packed segments."""
import tensorflow as tf


def segment_positions(segment_lengths):
    positions = tf.ragged.range(segment_lengths)  # XLA: op
    return positions.flat_values


# --- oracle ---
def ENTRY():
    return segment_positions, (tf.constant([3, 1, 2]),)
