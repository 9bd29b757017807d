"""Source: https://github.com/tensorflow/tensorflow/issues/108077 (near miss, the fix the report asks the error to suggest: the variable is created once, in build())."""
import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=[input_shape[-1]], initializer="ones")

    def call(self, x):
        return x * self.scale


class TestModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(4)
        self.scale = Scale()

    def call(self, x):
        return self.scale(self.dense(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    m = TestModel()
    m(tf.zeros([1, 3]))
    _KEEP.append(m)
    return m, (tf.constant([[1.0, 2.0, 3.0]]),)


def ALT_ARGS():
    return [(tf.constant([[2.0, 1.0, 0.0]]),)]
