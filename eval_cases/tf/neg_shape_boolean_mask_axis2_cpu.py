"""Source: https://github.com/tensorflow/tensorflow/issues/44904 (near miss, no longer reproduces: tf.boolean_mask along axis 2 "can't be compiled by XLA on CPU" in TF 2.4; XLA:CPU now compiles it with a bounded shape)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def select_replicas(replicas_used, sigma):
    kept = tf.boolean_mask(sigma, replicas_used > 0.5, axis=2)
    return tf.reduce_sum(kept, axis=2)


# --- oracle ---
def ENTRY():
    return select_replicas, (tf.constant([1.0, 0.0]), tf.reshape(tf.range(8, dtype=tf.float32), [4, 1, 2, 1]))
