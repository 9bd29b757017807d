"""Source: https://github.com/tensorflow/probability/issues/1447 ([Jit compile error] unsupported operation: MatrixDeterminant): a Gaussian log-density through the log-determinant of the covariance."""
import math

import tensorflow as tf


@tf.function(jit_compile=True)
def mvn_log_prob(x, mean, cov):
    d = tf.cast(tf.shape(x)[-1], tf.float32)
    _, logdet = tf.linalg.slogdet(cov)  # XLA: op
    diff = tf.transpose(x - mean)
    maha = tf.reduce_sum(diff * tf.linalg.solve(cov, diff), axis=0)
    return -0.5 * (d * math.log(2.0 * math.pi) + logdet + maha)


# --- oracle ---
def ENTRY():
    cov = tf.constant([[2.0, 0.3], [0.3, 1.0]])
    return mvn_log_prob, (tf.constant([[0.5, -0.2], [1.0, 0.0]]), tf.zeros([2]), cov)
