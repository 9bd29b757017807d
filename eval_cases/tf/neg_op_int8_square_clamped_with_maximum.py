"""Source: https://github.com/tensorflow/tensorflow/issues/118178 (the sign test of an int8 square that XLA folds) and xlacheck/data/tf_xla_divergence.json (int_overflow, form clamp_of_square: measured equal). The near miss: an int8 quantized block clamps the wrapped square with tf.maximum instead of testing its sign; XLA computes the clamp as eager mode does."""
import tensorflow as tf


@tf.function(jit_compile=True)
def clamped_energy(q):
    p = tf.multiply(q, q)
    return tf.maximum(p, 0)


# --- oracle ---
def ENTRY():
    return clamped_energy, (tf.constant([12, 7, 20, 15, 11], dtype=tf.int8),)
