"""Source: https://github.com/tensorflow/tensorflow/issues/122057 (tf.sequence_mask whose lengths come from a data-dependent cumprod and no maxlen: "Input 1 to node SequenceMask/Range ... must be a compile-time constant")."""
import tensorflow as tf


def span_coverage(scores, span_factors):
    lengths = tf.math.cumprod(span_factors, axis=-1)[:, -1]
    mask = tf.sequence_mask(lengths)  # XLA: shape
    covered = tf.reduce_sum(tf.cast(mask, tf.float32), axis=1)
    return covered * tf.reduce_mean(scores, axis=1)


# --- oracle ---
def ENTRY():
    scores = tf.constant([[0.5, 1.0, 2.0], [1.5, 0.5, 0.0]])
    factors = tf.constant([[1, 2, 2], [1, 1, 3]])
    return span_coverage, (scores, factors)
