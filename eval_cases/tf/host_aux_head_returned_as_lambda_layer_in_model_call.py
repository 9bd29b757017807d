"""Source: https://github.com/tensorflow/tensorflow/issues/108142 (a subclassed model's `call` returns a `tf.keras.layers.Lambda` wrapping its last sub-layer instead of applying it: eager execution hands the layer object back, while `tf.function(jit_compile=True)` refuses a traced function that returns something that is not a Tensor). Here a two-head regressor whose auxiliary head is returned as a Lambda layer by mistake."""
import tensorflow as tf


class TwoHeadRegressor(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.trunk = tf.keras.layers.Dense(16, activation="relu")
        self.mix = tf.keras.layers.Dense(8)
        self.main_head = tf.keras.layers.Dense(1)
        self.aux_head = tf.keras.layers.Dense(3)

    def call(self, x):
        h = self.trunk(x)
        h = tf.nn.softmax(self.mix(h), axis=-1)
        main = self.main_head(h)
        aux = tf.keras.layers.Lambda(lambda t: self.aux_head(t))  # XLA: host
        return main, aux


# --- oracle ---
def ENTRY():
    model = TwoHeadRegressor()
    x = tf.reshape(tf.range(24, dtype=tf.float32), [4, 6]) / 24.0
    return model, (x,)
