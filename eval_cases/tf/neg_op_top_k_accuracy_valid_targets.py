"""Source: https://github.com/tensorflow/tensorflow/issues/127909 (near miss: padded targets are masked out before the top-k comparison, so every target is a valid class)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def top2_hits(logits, targets):
    valid = targets >= 0
    safe_targets = tf.where(valid, targets, tf.zeros_like(targets))
    _, top = tf.math.top_k(logits, k=2)
    hits = tf.reduce_any(tf.equal(top, safe_targets[:, None]), axis=-1)
    return tf.cast(hits & valid, tf.float32)


# --- oracle ---
def ENTRY():
    logits = tf.constant([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.3, 0.3, 0.4]])
    return top2_hits, (logits, tf.constant([1, 2, -1]))
