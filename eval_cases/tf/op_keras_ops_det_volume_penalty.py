"""Source: https://github.com/tensorflow/tensorflow/issues/57807 (No registered 'MatrixDeterminant' OpKernel for XLA_GPU_JIT devices), here through Keras 3's keras.ops.det in a covariance-volume penalty of a compiled loss."""
import keras
import tensorflow as tf


def covariance_volume(features):
    centered = features - keras.ops.mean(features, axis=0, keepdims=True)
    cov = keras.ops.matmul(keras.ops.transpose(centered), centered) / 8.0
    cov = cov + 1e-3 * keras.ops.eye(4)
    return keras.ops.det(cov)  # XLA: op


@tf.function(jit_compile=True)
def decorrelation_loss(features):
    return tf.reduce_mean(tf.square(features)) - 0.1 * tf.math.log(covariance_volume(features))


# --- oracle ---
def ENTRY():
    x = tf.math.sin(tf.reshape(tf.range(8 * 4, dtype=tf.float32), [8, 4]))
    return decorrelation_loss, (x,)
