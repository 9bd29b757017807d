"""Source: https://github.com/tensorflow/tensorflow/issues/126191 (a layer stores its target shape as a tensor and builds tf.TensorShape(self.target_shape) for a while_loop shape invariant: works eagerly, fails under jit_compile because the tensor has no Python value)."""
import tensorflow as tf


class IterativeRefiner(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tf.constant([2, 2])

    def call(self, x, n_iter):
        def body(i, y):
            return i + 1, 0.5 * (y + tf.transpose(y))

        invariant = tf.TensorShape(self.target_shape)  # XLA: host
        _, y = tf.while_loop(lambda i, y: i < n_iter, body, (0, x), shape_invariants=(tf.TensorShape([]), invariant))
        return y


refiner = IterativeRefiner()


def refine(x, n_iter):
    return refiner(x, n_iter)


# --- oracle ---
def ENTRY():
    return refine, (tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant(3))
