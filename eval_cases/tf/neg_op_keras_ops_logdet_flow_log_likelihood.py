"""Source: https://github.com/keras-team/keras/pull/20200 (adding keras.ops.logdet: "TF logdet will work with XLA, slogdet - no"): the documented alternative, keras.ops.logdet of a positive-definite matrix, in a compiled Gaussian log-likelihood."""
import keras
import tensorflow as tf


@tf.function(jit_compile=True)
def gaussian_nll(x, scale_tril_raw):
    cov = tf.matmul(scale_tril_raw, scale_tril_raw, transpose_b=True) + 0.1 * tf.eye(3)
    solved = tf.linalg.solve(cov, tf.transpose(x))
    mahalanobis = tf.reduce_sum(tf.transpose(x) * solved, axis=0)
    return 0.5 * tf.reduce_mean(mahalanobis) + 0.5 * keras.ops.logdet(cov)


# --- oracle ---
def ENTRY():
    x = tf.math.sin(tf.reshape(tf.range(5 * 3, dtype=tf.float32), [5, 3]))
    return gaussian_nll, (x, tf.constant([[1.0, 0.0, 0.0], [0.2, 1.0, 0.0], [0.1, 0.3, 1.0]]))
