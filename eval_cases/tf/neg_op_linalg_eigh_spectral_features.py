"""Source: https://github.com/tensorflow/tensorflow/issues/126007 (near miss): the covariance is symmetric, so tf.linalg.eigh, which has an XLA kernel, gives the same spectrum."""
import tensorflow as tf


@tf.function(jit_compile=True)
def spectral_features(x):
    centered = x - tf.reduce_mean(x, axis=0, keepdims=True)
    cov = tf.matmul(centered, centered, transpose_a=True) / tf.cast(tf.shape(x)[0], tf.float32)
    eigvals = tf.linalg.eigvalsh(cov)
    return tf.sort(eigvals)


# --- oracle ---
def ENTRY():
    x = tf.constant([[1.0, 2.0, 0.5], [0.0, 1.0, 1.5], [2.0, 0.5, 1.0], [1.0, 1.0, 0.0]])
    return spectral_features, (x,)
