"""Source: https://github.com/tensorflow/tensorflow/issues/46765 ("numpy() is not working on Tensor object": a custom Dense layer prints `inputs.numpy().shape` in call, which works eagerly and breaks as soon as the layer is traced)."""
import tensorflow as tf


class SimpleDense(tf.keras.layers.Layer):
    def __init__(self, units=4, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(name="kernel", shape=(input_shape[-1], self.units), initializer="glorot_uniform")
        self.b = self.add_weight(name="bias", shape=(self.units,), initializer="zeros")

    def call(self, inputs):
        print("input", inputs.numpy().shape)  # XLA: host
        return tf.matmul(inputs, self.w) + self.b


model = tf.keras.Sequential([SimpleDense(4), tf.keras.layers.ReLU(), SimpleDense(1)])


def predict(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return predict, (tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]) / 6.0,)
