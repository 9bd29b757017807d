"""Source: https://github.com/tensorflow/tensorflow/issues/118178 (an int8 square that wraps is treated by XLA as never negative, so a sign test of it is folded) and xlacheck/data/tf_xla_divergence.json (form sign_test_of_square, x ** 2). An int8 quantized block keeps only the activations whose energy did not wrap."""
import tensorflow as tf


@tf.function(jit_compile=True)
def valid_energy(q):
    energy = q ** 2
    ok = tf.math.greater_equal(energy, 0)  # XLA: op
    return tf.where(ok, energy, tf.zeros_like(energy)), tf.reduce_sum(tf.cast(ok, tf.int32))


# --- oracle ---
def ENTRY():
    return valid_energy, (tf.constant([3, 12, -9, 20, 1], dtype=tf.int8),)
