"""Source: https://github.com/tensorflow/tensorflow/issues/56769 ([XLA] Bincount dynamic output size in a loop: "Input 1 to node while/bincount/Bincount with op Bincount must be a compile-time constant")."""
import tensorflow as tf


@tf.function(jit_compile=True)
def class_histograms(labels):
    total = tf.zeros([6], tf.int32)
    for length in tf.range(2):
        counts = tf.math.bincount(labels, minlength=length + 5, maxlength=6)  # XLA: shape
        total += counts
    return total


# --- oracle ---
def ENTRY():
    return class_histograms, (tf.constant([1, 1, 2, 3, 2, 4, 4, 5]),)
