"""Source: https://github.com/msxiaojin/MDLCC/pull/2 ("Cannot convert a symbolic Tensor ... to a numpy array": np.multiply on model tensors in a utility, fixed with tf.multiply)."""
import numpy as np
import tensorflow as tf


def confidence_weighted_estimate(rgb, confidence):
    weighted = np.multiply(rgb, confidence)  # XLA: host
    return tf.math.l2_normalize(tf.reduce_sum(weighted, axis=[1, 2]), axis=-1)


# --- oracle ---
def ENTRY():
    rgb = tf.reshape(tf.range(2 * 2 * 2 * 3, dtype=tf.float32) / 24.0, [2, 2, 2, 3])
    confidence = tf.reshape(tf.range(2 * 2 * 2 * 1, dtype=tf.float32) / 8.0, [2, 2, 2, 1])
    return confidence_weighted_estimate, (rgb, confidence)
