"""Source: https://github.com/tensorflow/tensorflow/issues/118376 ("XLA jit_compile=True returns different result for tf.math.in_top_k with NaN predictions": the compiled and eager results differ only when a prediction is NaN). Here the jit-compiled evaluation step scores top-2 accuracy with `tf.math.in_top_k` on finite logits (a healthy model's outputs); the compiled accuracy equals the eager one."""
import tensorflow as tf


@tf.function(jit_compile=True)
def eval_step(logits, labels):
    hits = tf.math.in_top_k(labels, logits, k=2)
    return tf.reduce_mean(tf.cast(hits, tf.float32))


# --- oracle ---
def ENTRY():
    logits = tf.constant([[0.5, 0.1, 0.7, 0.6],
                          [0.1, 0.2, 0.3, 0.9],
                          [0.8, 0.4, 0.2, 0.1]], tf.float32)
    labels = tf.constant([2, 1, 1], tf.int32)
    return eval_step, (logits, labels)
