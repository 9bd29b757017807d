"""Source: https://github.com/tensorflow/tensorflow/issues/51493 (No registered 'EagerPyFunc' OpKernel for XLA_GPU_JIT: a tf.py_function inside a jit-compiled training loop)."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.dense = tf.keras.layers.Dense(4)

    def compare(self, y_true, output):
        return tf.square(y_true - output)

    @tf.function(jit_compile=True)
    def loss(self, x):
        y_true = tf.ones([1, 4])
        output = self.dense(x)
        comp = tf.py_function(self.compare, [y_true, output], tf.float32)  # XLA: op
        return tf.reduce_mean(comp)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.loss, (tf.constant([[7.0, 3.0]]),)
