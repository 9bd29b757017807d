"""Source: https://github.com/keras-team/keras/issues/17227 (string preprocessing inside a model compiled with jit_compile=True fails: XLA has no string kernels; here a sub-layer of a subclassed model parses numeric strings)."""
import tensorflow as tf


class ParseNumbers(tf.keras.layers.Layer):
    def call(self, fields):
        return tf.strings.to_number(fields, out_type=tf.float32)  # XLA: op


class PriceRegressor(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.parse = ParseNumbers()
        self.head = tf.keras.layers.Dense(1)

    def call(self, fields):
        return self.head(self.parse(fields))


def build_model():
    model = PriceRegressor()
    model.compile(optimizer="adam", loss="mse", jit_compile=True)
    return model


# --- oracle ---
def ENTRY():
    model = build_model()
    return model, (tf.constant([["1.5", "2.0"], ["0.5", "3.0"]]),)
