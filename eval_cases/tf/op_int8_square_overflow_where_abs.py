"""Source: https://github.com/tensorflow/tensorflow/issues/118178 (jit_compile returns the raw overflowed int8 product instead of the result of `tf.where(p < 0, tf.abs(p), p)`: an int8 activation-energy computation in a quantized block differs from eager)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def int8_energy(q_activations):
    p = tf.multiply(q_activations, q_activations)
    folded = tf.where(p < 0, tf.abs(p), p)  # XLA: op
    return folded


# --- oracle ---
def ENTRY():
    return int8_energy, (tf.constant([12, 7, 20, 15, 11], dtype=tf.int8),)
