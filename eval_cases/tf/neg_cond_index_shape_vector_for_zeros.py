"""Source: https://github.com/tensorflow/tensorflow/issues/48305 (the fix of `[r, c] = tf.shape(x)` in a tf.function: read the dimensions by index instead of unpacking the shape tensor); a coverage-map helper of a detection head."""
import tensorflow as tf


@tf.function(jit_compile=True)
def coverage_map(scores, threshold):
    shape = tf.shape(scores)
    rows, cols = shape[0], shape[1]
    grid = tf.zeros([rows, cols], dtype=scores.dtype)
    return grid + tf.cast(scores > threshold, scores.dtype)


# --- oracle ---
def ENTRY():
    return coverage_map, (tf.constant([[0.1, 0.7, 0.4], [0.9, 0.2, 0.6]]), tf.constant(0.5))
