"""Source: https://github.com/tensorflow/tensorflow/issues/57756 (near miss, does not reproduce on TF 2.21 XLA:CPU: a TensorArray kept on `self` and rewritten inside a tf.range loop: "The tensor cannot be accessed ... because it was defined in FuncGraph which is out of scope")."""
import tensorflow as tf


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)
        self.mem = None

    def loss(self, out):
        return 2.0 * out - 1.0

    def rollout(self, x):
        self.mem = tf.TensorArray(tf.float32, size=4)
        for i in tf.range(4):
            out_i = self.dense(x * tf.cast(i, tf.float32))
            self.mem = self.mem.write(i, self.loss(out_i))
        return tf.reduce_sum(self.mem.stack())


# --- oracle ---
_KEEP = []


def ENTRY():
    m = Outer()
    m.dense(tf.zeros([1, 2]))
    _KEEP.append(m)
    return m.rollout, (tf.constant([[0.5, 1.0]]),)
