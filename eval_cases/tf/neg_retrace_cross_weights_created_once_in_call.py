"""Source: https://github.com/Hirosora/LightCTR/issues/5 ("tf.function-decorated function tried to create variables on non-first call" in a CTR model; the fix: create the feature-cross weight only when it does not exist yet, so later traces reuse it)."""
import tensorflow as tf


class CrossLayer(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.cross_w = None

    def call(self, x):
        if self.cross_w is None:
            self.cross_w = tf.Variable(tf.ones([x.shape[-1], 1]) * 0.1, name="cross_w")
        return x * tf.matmul(x, self.cross_w) + x


class CTRModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.cross = CrossLayer()
        self.out = tf.keras.layers.Dense(1, activation="sigmoid")

    def call(self, x):
        return self.out(self.cross(x))


model = CTRModel()


@tf.function(jit_compile=True)
def predict_ctr(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return predict_ctr, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0,)


def ALT_ARGS():
    return [(tf.ones([2, 4]) * 0.3,)]
