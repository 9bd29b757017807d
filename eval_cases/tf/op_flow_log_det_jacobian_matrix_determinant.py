"""Source: https://github.com/tensorflow/tensorflow/issues/125536 (tf.linalg.det fails under jit_compile=True: no XLA kernel for MatrixDeterminant; here a linear normalizing-flow layer adds log|det W| to the log-likelihood)."""
import tensorflow as tf


class LinearFlow(tf.keras.layers.Layer):
    def build(self, input_shape):
        dim = input_shape[-1]
        self.w = self.add_weight(name="w", shape=(dim, dim), initializer="identity")

    def call(self, x):
        z = tf.matmul(x, self.w)
        log_det = tf.math.log(tf.abs(tf.linalg.det(self.w)))  # XLA: op
        return z, log_det


flow = LinearFlow()


@tf.function(jit_compile=True)
def log_likelihood(x):
    z, log_det = flow(x)
    return tf.reduce_mean(-0.5 * tf.reduce_sum(tf.square(z), axis=-1)) + log_det


# --- oracle ---
def ENTRY():
    return log_likelihood, (tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]) / 6.0,)
