"""Source: https://github.com/tensorflow/tensorflow/issues/120236 (tf.math.in_top_k returns True under jit_compile where eager returns False when predictions contain NaN: a top-1 accuracy metric over logits with a NaN entry from a masked class)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def top1_accuracy(logits, mask, labels):
    masked = logits + tf.math.log(mask) * mask
    hits = tf.math.in_top_k(labels, masked, k=1)  # XLA: op
    return tf.reduce_mean(tf.cast(hits, tf.float32))


# --- oracle ---
def ENTRY():
    logits = tf.constant([[0.5, 0.0, 0.7, 0.6], [0.1, 0.9, 0.3, 0.2]])
    mask = tf.constant([[1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
    return top1_accuracy, (logits, mask, tf.constant([2, 1]))
