"""Source: https://github.com/tensorflow/probability/issues/1767 (tf.vectorized_map over a batch of observation sequences running a Kalman forward filter works in tf.function but fails when XLA-compiled; here a scalar-state filter written with tf.scan)."""
import tensorflow as tf


def kalman_filter(observations):
    def step(carry, y):
        mean, var = carry
        var = var + 1.0
        gain = var / (var + 25.0)
        mean = mean + gain * (y - mean)
        return mean, (1.0 - gain) * var

    means, _ = tf.scan(step, observations, initializer=(tf.constant(0.0), tf.constant(1.0)))
    return means


@tf.function(jit_compile=True)
def filter_batch(observations):
    return tf.vectorized_map(kalman_filter, observations)  # XLA: op


# --- oracle ---
def ENTRY():
    return filter_batch, (tf.reshape(tf.sin(tf.range(12, dtype=tf.float32)), [3, 4]),)
