"""Source: https://github.com/tensorflow/tensorflow/issues/122057 (ops fail under jit_compile with "must be a compile-time constant" when a length/shape argument comes from a data-dependent computation); here each row's length, the element tf.map_fn hands its function, sizes that row's mask."""
import tensorflow as tf

MAX_LEN = 6


def row_mask(length):
    ones = tf.ones([length])  # XLA: shape
    return tf.pad(ones, [[0, MAX_LEN - length]])


@tf.function(jit_compile=True)
def masked_mean(values, lengths):
    mask = tf.map_fn(row_mask, lengths, fn_output_signature=tf.float32)
    return tf.reduce_sum(values * mask, axis=1) / tf.cast(lengths, tf.float32)


# --- oracle ---
def ENTRY():
    values = tf.reshape(tf.range(12, dtype=tf.float32), [2, 6])
    return masked_mean, (values, tf.constant([3, 5]))
