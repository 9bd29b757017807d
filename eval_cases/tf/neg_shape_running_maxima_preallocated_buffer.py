"""Source: https://github.com/tensorflow/tensorflow/issues/56296 (the usual fix for a tensor grown in a loop: write into a TensorArray whose size is the static length of the input, so every loop variable keeps its shape under XLA)."""
import tensorflow as tf


def running_maxima(scores):
    n = scores.shape[0]
    peaks = tf.TensorArray(tf.float32, size=n)
    best = tf.constant(-1e9)
    for i in tf.range(n):
        best = tf.maximum(best, scores[i])
        peaks = peaks.write(i, best)
    return peaks.stack()


@tf.function(jit_compile=True)
def peak_profile(scores):
    return tf.reduce_sum(running_maxima(scores))


# --- oracle ---
def ENTRY():
    return peak_profile, (tf.constant([0.2, 0.9, 0.4, 1.3, 0.1]),)
