"""Source: https://github.com/tensorflow/tensorflow/issues/41836 (a Keras layer whose op and its gradient are NumPy/numba kernels wrapped in `tf.numpy_function` under `tf.custom_gradient`; it runs eagerly but not inside a compiled training step, where the PyFunc ops have no XLA kernel)."""
import numpy as np
import tensorflow as tf


def _forward_kernel(param, x):
    return (param * x ** 2).astype(np.float32)


def _grad_kernel(param, x):
    return (x ** 2).astype(np.float32)


@tf.custom_gradient
def quadratic_op(param, x):
    y = tf.numpy_function(_forward_kernel, (param, x), tf.float32)  # XLA: host
    y.set_shape(x.shape)

    def grad(dy):
        dparam = tf.numpy_function(_grad_kernel, (param, x), tf.float32)
        dparam.set_shape(x.shape)
        return tf.reduce_sum(dy * dparam), dy * 2.0 * param * x

    return y, grad


class QuadraticLayer(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.param = self.add_weight(name="param", shape=(), initializer="ones")

    def call(self, x):
        return quadratic_op(self.param, x)


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([QuadraticLayer(), QuadraticLayer()])
        self.model.build([None, 3])
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.abs(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0
    return t.train_step, (x, tf.ones([2, 3]))
