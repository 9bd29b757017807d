"""Source: https://github.com/tkipf/keras-gcn/issues/55 (a graph-convolution layer tests `if self.bias:` where the bias (here a scalar) is a variable: "Using a tf.Tensor as a Python bool is not allowed")."""
import tensorflow as tf


class GraphConvolution(tf.keras.layers.Layer):
    def __init__(self, units, use_bias=True):
        super().__init__()
        self.units = units
        self.use_bias = use_bias

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=[input_shape[0][-1], self.units])
        self.bias = self.add_weight(name="bias", shape=[], initializer="ones") if self.use_bias else None

    def call(self, inputs):
        features, support = inputs
        output = tf.matmul(support, tf.matmul(features, self.kernel))
        if self.bias:  # XLA: cond
            output = output + self.bias
        return output


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = GraphConvolution(4)
    _KEEP.append(layer)
    features = tf.reshape(tf.range(9, dtype=tf.float32) / 9.0, [3, 3])
    support = tf.constant([[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]])
    return layer, ((features, support),)
