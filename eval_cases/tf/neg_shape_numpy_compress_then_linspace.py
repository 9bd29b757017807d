"""Source: https://github.com/tensorflow/tensorflow/pull/122563 (near miss, fixed by the PR, compiles on TF 2.21: fix for #122055: tf.experimental.numpy.compress with a short condition gives a bounded shape that later fails "Invalid shape broadcast from f64[<=96] to [44]")."""
import tensorflow as tf
import tensorflow.experimental.numpy as tnp


def log_spaced_grid(condition, values):
    kept = tnp.compress(condition, values)
    lo = tnp.min(kept)
    return tnp.geomspace(lo + 1.0, lo + 10.0, num=condition.shape[0]) + kept


# --- oracle ---
def ENTRY():
    condition = tf.constant([True, True, True, True])
    values = tf.range(1.0, 9.0, dtype=tf.float64)
    return log_spaced_grid, (condition, values)
