"""Source: https://github.com/tensorflow/tensorflow/issues/126212 (casting a NaN float to int32 gives INT32_MIN eagerly and 0 under jit_compile; also tensorflow/tensorflow#57883 for int64): a length-bucket id computed from the mean span length of each example, where an example without spans divides 0 by 0."""
import tensorflow as tf


@tf.function(jit_compile=True)
def length_bucket(span_lengths, span_mask):
    mask = tf.cast(span_mask, tf.float32)
    mean_length = tf.reduce_sum(span_lengths * mask, axis=-1) / tf.reduce_sum(mask, axis=-1)
    return tf.cast(mean_length / 8.0, tf.int32)  # XLA: op


# --- oracle ---
def ENTRY():
    lengths = tf.constant([[12.0, 30.0, 0.0], [0.0, 0.0, 0.0], [40.0, 8.0, 16.0]])
    mask = tf.constant([[1, 1, 0], [0, 0, 0], [1, 1, 1]])
    return length_bucket, (lengths, mask)
