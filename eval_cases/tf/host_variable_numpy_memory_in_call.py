"""Source: https://github.com/tensorflow/tensorflow/issues/105728 (a Keras layer reads a variable's value with .numpy() on the way into a tf.function-decorated helper: "numpy() is only available when eager execution is enabled")."""
import tensorflow as tf


class MemoryNetwork(tf.keras.layers.Layer):
    def __init__(self, slots=4, dim=8):
        super().__init__()
        self.memory = tf.Variable(tf.ones([slots, dim]) * 0.1, trainable=False)
        self.query = tf.keras.layers.Dense(dim)

    @tf.function
    def attention(self, q, memory):
        scores = tf.nn.softmax(tf.matmul(q, memory, transpose_b=True))
        return tf.matmul(scores, memory)

    def call(self, x):
        return self.attention(self.query(x), self.memory.numpy())  # XLA: host


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = MemoryNetwork()
    _KEEP.append(layer)
    return layer, (tf.reshape(tf.range(16, dtype=tf.float32) / 16.0, [2, 8]),)
