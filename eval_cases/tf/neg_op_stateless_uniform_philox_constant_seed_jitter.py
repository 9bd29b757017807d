"""Source: https://github.com/tensorflow/tensorflow/issues/58752 (near miss: alg="philox" with a Python constant seed gives the same values with and without XLA on TF 2.21)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def jitter_points(points):
    noise = tf.random.stateless_uniform(tf.shape(points), seed=(4, 11), minval=-0.05, maxval=0.05, alg="philox")
    return points + noise


# --- oracle ---
def ENTRY():
    return jitter_points, (tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]),)
