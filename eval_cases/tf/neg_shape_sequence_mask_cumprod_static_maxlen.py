"""Source: https://github.com/tensorflow/tensorflow/issues/122057 (near miss, the maintainer's check): the same data-dependent lengths with a static maxlen compile."""
import tensorflow as tf

MAX_SPAN = 16


def span_coverage(scores, span_factors):
    lengths = tf.math.cumprod(span_factors, axis=-1)[:, -1]
    mask = tf.sequence_mask(lengths, maxlen=MAX_SPAN)
    covered = tf.reduce_sum(tf.cast(mask, tf.float32), axis=1)
    return covered * tf.reduce_mean(scores, axis=1)


# --- oracle ---
def ENTRY():
    scores = tf.constant([[0.5, 1.0, 2.0], [1.5, 0.5, 0.0]])
    factors = tf.constant([[1, 2, 2], [1, 1, 3]])
    return span_coverage, (scores, factors)
