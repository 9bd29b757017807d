"""Source: https://github.com/tensorflow/tensorflow/issues/58752 (stateless random values differ under jit_compile): Gaussian jitter with alg="philox" whose seed is a per-step tensor; the compiled step draws other numbers than eager mode."""
import tensorflow as tf


@tf.function(jit_compile=True)
def jitter_points(points, step_seed):
    noise = tf.random.stateless_normal(tf.shape(points), seed=step_seed, stddev=0.05, alg="philox")  # XLA: op
    return points + noise


# --- oracle ---
def ENTRY():
    return jitter_points, (tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]), tf.constant([4, 11]))
