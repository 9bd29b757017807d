"""Source: https://github.com/tensorflow/tensorflow/issues/26258 ("Support matrix_inverse in XLA": No registered 'MatrixInverse' OpKernel for XLA_CPU_JIT in 2019; TF 2.21 has an XLA:CPU lowering, so a GP posterior mean written with tf.linalg.inv compiles)."""
import tensorflow as tf


class GPRegressor(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.log_lengthscale = self.add_weight(name="log_lengthscale", shape=(), initializer="zeros")

    def kernel(self, a, b):
        sq = tf.reduce_sum(tf.square(a[:, None, :] - b[None, :, :]), axis=-1)
        return tf.exp(-0.5 * sq / tf.exp(2.0 * self.log_lengthscale))

    def call(self, x_train, y_train, x_test):
        k = self.kernel(x_train, x_train) + 0.1 * tf.eye(tf.shape(x_train)[0])
        return tf.matmul(self.kernel(x_test, x_train), tf.matmul(tf.linalg.inv(k), y_train))


gp = GPRegressor()


@tf.function(jit_compile=True)
def posterior_mean(x_train, y_train, x_test):
    return gp(x_train, y_train, x_test)


# --- oracle ---
def ENTRY():
    x = tf.reshape(tf.linspace(0.0, 1.0, 5), [5, 1])
    return posterior_mean, (x, tf.sin(3.0 * x), tf.constant([[0.25], [0.75]]))
