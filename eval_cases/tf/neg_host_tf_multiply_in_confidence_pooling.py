"""Source: https://github.com/msxiaojin/MDLCC/pull/2 (near miss, the PR's fix: tf.multiply instead of np.multiply)."""
import numpy as np
import tensorflow as tf

EPS = np.float32(1e-6)


def confidence_weighted_estimate(rgb, confidence):
    weighted = tf.multiply(rgb, confidence)
    return tf.math.l2_normalize(tf.reduce_sum(weighted, axis=[1, 2]) + EPS, axis=-1)


# --- oracle ---
def ENTRY():
    rgb = tf.reshape(tf.range(2 * 2 * 2 * 3, dtype=tf.float32) / 24.0, [2, 2, 2, 3])
    confidence = tf.reshape(tf.range(2 * 2 * 2 * 1, dtype=tf.float32) / 8.0, [2, 2, 2, 1])
    return confidence_weighted_estimate, (rgb, confidence)
