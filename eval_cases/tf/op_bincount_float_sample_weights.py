"""Source: https://github.com/ROCm/tensorflow-upstream/issues/908 ("tf.math.bincount can only sum integer weights when using XLA": a class-frequency histogram weighted by float sample weights inside a compiled step)."""
import tensorflow as tf

NUM_CLASSES = 3


@tf.function(jit_compile=True)
def weighted_class_frequencies(labels, sample_weights):
    counts = tf.math.bincount(labels, weights=sample_weights, minlength=NUM_CLASSES,  # XLA: op
                              maxlength=NUM_CLASSES)
    return counts / tf.reduce_sum(sample_weights)


# --- oracle ---
def ENTRY():
    return weighted_class_frequencies, (tf.constant([0, 2, 2, 1, 0]), tf.constant([0.5, 1.0, 2.0, 1.5, 0.25]))
