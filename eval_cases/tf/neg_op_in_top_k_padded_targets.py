"""Source: https://github.com/tensorflow/tensorflow/issues/127909 (near miss, does not reproduce on TF 2.21 XLA:CPU with a -1 target: tf.math.in_top_k with an out-of-range target returns True under jit_compile, False eagerly): a top-2 accuracy where padded targets are -1."""
import tensorflow as tf


@tf.function(jit_compile=True)
def top2_hits(logits, targets):
    hits = tf.math.in_top_k(targets, logits, k=2)
    return tf.cast(hits, tf.float32)


# --- oracle ---
def ENTRY():
    logits = tf.constant([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.3, 0.3, 0.4]])
    return top2_hits, (logits, tf.constant([1, 2, -1]))
