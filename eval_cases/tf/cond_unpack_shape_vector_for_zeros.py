"""Source: https://github.com/tensorflow/tensorflow/issues/48305 (OperatorNotAllowedInGraphError "iterating over `tf.Tensor` is not allowed": `[r, c] = tf.shape(x)` unpacks a shape tensor inside a tf.function); here a coverage-map helper of a detection head."""
import tensorflow as tf


@tf.function(jit_compile=True)
def coverage_map(scores, threshold):
    [rows, cols] = tf.shape(scores)  # XLA: cond
    grid = tf.zeros([rows, cols], dtype=scores.dtype)
    return grid + tf.cast(scores > threshold, scores.dtype)


# --- oracle ---
def ENTRY():
    return coverage_map, (tf.constant([[0.1, 0.7, 0.4], [0.9, 0.2, 0.6]]), tf.constant(0.5))
