"""Source: https://github.com/tensorflow/tensorflow/issues/117286 ("`tf.nn.moments` returns wrong variance under `jit_compile=True` for large-magnitude inputs": identical float32 values around 1e10 get a variance of about 1e6 under XLA instead of 0, because the compiled reduction rounds the mean and the error is squared). Here a per-example layer normalization, written with `tf.nn.moments`, applied to unscaled order-book price features (prices in micro-units) in a jit-compiled model. Written as the failing case; does not reproduce on TF 2.21 CPU for these identical 1e10-scale features (the compiled variance matches eager execution), so it is a negative; its rescaled twin does diverge."""
import tensorflow as tf


class PriceLayerNorm(tf.keras.layers.Layer):
    def call(self, x):
        mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
        return (x - mean) * tf.math.rsqrt(var + 1e-3)


class BookModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.norm = PriceLayerNorm()
        self.out = tf.keras.layers.Dense(1)

    def call(self, prices):
        return self.out(self.norm(prices))


model = BookModel()


@tf.function(jit_compile=True)
def predict(prices):
    return model(prices)


# --- oracle ---
WRAP = False


def ENTRY():
    prices = tf.constant([[1.0e10, 1.0e10, 1.0e10, 1.0e10], [2.5e10, 2.5e10, 2.5e10, 2.5e10]])
    return predict, (prices,)
