"""Source: https://github.com/tensorflow/tensorflow/issues/117286 ("`tf.nn.moments` returns wrong variance under `jit_compile=True` for large-magnitude inputs"). The near miss: the order-book prices are converted from micro-units to units (divided by 1e6) before the `tf.nn.moments` layer normalization, in the same jit-compiled model. Written as the near miss; the compiler disagrees: on TF 2.21 CPU the compiled variance of these identical 1e4-scale features differs from eager execution (a wrong result), so it is a failing case."""
import tensorflow as tf


class PriceLayerNorm(tf.keras.layers.Layer):
    def call(self, x):
        mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)  # XLA: op
        return (x - mean) * tf.math.rsqrt(var + 1e-3)


class BookModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.norm = PriceLayerNorm()
        self.out = tf.keras.layers.Dense(1)

    def call(self, prices):
        return self.out(self.norm(prices / 1e6))


model = BookModel()


@tf.function(jit_compile=True)
def predict(prices):
    return model(prices)


# --- oracle ---
WRAP = False


def ENTRY():
    prices = tf.constant([[1.0e10, 1.0e10, 1.0e10, 1.0e10], [2.5e10, 2.5e10, 2.5e10, 2.5e10]])
    return predict, (prices,)
