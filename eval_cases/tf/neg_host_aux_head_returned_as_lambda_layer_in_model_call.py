"""Source: https://github.com/tensorflow/tensorflow/issues/108142 (the fix of a model whose `call` returned a `tf.keras.layers.Lambda` object: call the head on the features and return its output tensor, which `tf.function(jit_compile=True)` compiles). Two-head regressor returning both head outputs."""
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
        aux = self.aux_head(h)
        return main, aux


# --- oracle ---
def ENTRY():
    model = TwoHeadRegressor()
    x = tf.reshape(tf.range(24, dtype=tf.float32), [4, 6]) / 24.0
    return model, (x,)
