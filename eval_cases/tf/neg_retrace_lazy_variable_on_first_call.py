"""Source: https://github.com/tensorflow/tensorflow/issues/47792 (near miss: a get_param helper creates its variable on the first call only, which tf.function supports; later calls reuse it)."""
import tensorflow as tf


class Network(tf.Module):
    def __init__(self):
        super().__init__()
        self.params = {}

    def get_param(self, name, shape):
        if name not in self.params:
            self.params[name] = tf.Variable(tf.ones(shape) * 0.1, name=name)
        return self.params[name]

    @tf.function(jit_compile=True)
    def __call__(self, x):
        w = self.get_param("w", [2, 1])
        return tf.matmul(x, w)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    n = Network()
    _KEEP.append(n)
    return n.__call__, (tf.constant([[1.0, 2.0]]),)


def ALT_ARGS():
    return [(tf.constant([[3.0, 4.0]]),)]
