"""Source: https://github.com/tensorflow/tensorflow/issues/105151 (fix: wrap the operand with tf.convert_to_tensor, which passes a symbolic tensor through, instead of tf.constant; the gated model then compiles)."""
import tensorflow as tf


class Quantity:
    def __init__(self, value):
        self.value = tf.convert_to_tensor(value, dtype=tf.float32)

    def __mul__(self, other):
        return Quantity(self.value * other.value)


class GatedModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(4)
        self.gate = tf.keras.layers.Dense(4, activation="sigmoid")

    def call(self, x):
        return (Quantity(self.proj(x)) * Quantity(self.gate(x))).value


model = GatedModel()


def forward(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return forward, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0,)
