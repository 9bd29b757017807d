"""Source: https://github.com/tensorflow/tensorflow/issues/108077 (tf.Variable creation inside model.call() under jit_compile: "tf.function only supports singleton tf.Variables created on the first call")."""
import tensorflow as tf


class TestModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(4)

    def call(self, x):
        scale = tf.Variable(tf.ones([4]), trainable=True)  # XLA: retrace
        return self.dense(x) * scale


# --- oracle ---
_KEEP = []


def ENTRY():
    m = TestModel()
    _KEEP.append(m)
    return m, (tf.constant([[1.0, 2.0, 3.0]]),)


def ALT_ARGS():
    return [(tf.constant([[2.0, 1.0, 0.0]]),)]
