"""Source: https://github.com/tensorflow/tensorflow/issues/126212 (near miss: the span count is clamped to at least 1 before the division, so the value cast to int32 is never NaN and both modes agree)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def length_bucket(span_lengths, span_mask):
    mask = tf.cast(span_mask, tf.float32)
    count = tf.maximum(tf.reduce_sum(mask, axis=-1), 1.0)
    mean_length = tf.reduce_sum(span_lengths * mask, axis=-1) / count
    return tf.cast(mean_length / 8.0, tf.int32)


# --- oracle ---
def ENTRY():
    lengths = tf.constant([[12.0, 30.0, 0.0], [0.0, 0.0, 0.0], [40.0, 8.0, 16.0]])
    mask = tf.constant([[1, 1, 0], [0, 0, 0], [1, 1, 1]])
    return length_bucket, (lengths, mask)
