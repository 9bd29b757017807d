"""Source: https://github.com/tensorflow/tensorflow/issues/45538 (loop variables must keep their shape across iterations; the fixed-shape way to prune: carry a keep-mask of the full length instead of filtering the scores in the loop). Written as a negative, the compiler disagreed: the loop bound `tf.range(rounds)` comes from an argument of the jit entry, so XLA bakes its value in (value_specialized)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def pruned_mass(scores, rounds):
    keep = tf.ones_like(scores)
    for _ in tf.range(rounds):  # XLA: shape
        mean = tf.reduce_sum(scores * keep) / tf.reduce_sum(keep)
        keep = keep * tf.cast(scores >= mean, scores.dtype)
    return tf.reduce_sum(scores * keep)


# --- oracle ---
def ENTRY():
    return pruned_mass, (tf.constant([0.1, 0.5, 0.9, 0.3, 0.7, 0.2]), tf.constant(2))
