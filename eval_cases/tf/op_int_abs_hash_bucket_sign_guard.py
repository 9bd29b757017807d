"""Source: https://github.com/tensorflow/tensorflow/issues/118178 (XLA folds sign tests that eager mode evaluates on wrapped integers) and xlacheck/data/tf_xla_divergence.json (int_overflow, form sign_test_of_abs). A feature-hashing layer takes |hash| of int32 ids and guards against the one value whose absolute value stays negative (INT_MIN), mapping it to bucket 0."""
import tensorflow as tf


@tf.function(jit_compile=True)
def hash_buckets(ids, num_buckets=97):
    h = tf.abs(ids * 1000003)
    h = tf.where(h < 0, tf.zeros_like(h), h)  # XLA: op
    return tf.math.floormod(h, num_buckets)


# --- oracle ---
def ENTRY():
    return hash_buckets, (tf.constant([5, -2147483648, 17, 0], dtype=tf.int32),)
