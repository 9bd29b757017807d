"""Source: https://github.com/tensorflow/tensorflow/issues/105652 (tf.numpy_function in a Keras model's call fails under jit_compile=True)."""
import tensorflow as tf


def scale_by_square(x, y):
    return x * y ** 2


class TestModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(8, activation="relu")
        self.d2 = tf.keras.layers.Dense(4)

    def call(self, x):
        x = self.d1(x)
        x = tf.numpy_function(scale_by_square, [x, tf.constant(2.0)], tf.float32)  # XLA: op
        return self.d2(x)


# --- oracle ---
_KEEP = []


def ENTRY():
    m = TestModel()
    _KEEP.append(m)
    return m, (tf.reshape(tf.range(12, dtype=tf.float32) / 12.0, [3, 4]),)
