"""Source: https://github.com/keras-team/keras/pull/20121 ("TF cond with plain bool's": `tf.cond` accepts a raw Python bool as `pred` only outside a `tf.function`; under `model.compile(jit_compile=True)` the same call fails. Here a residual block chooses its projection shortcut from a Python config flag with `tf.cond`)."""
import tensorflow as tf


class ResidualBlock(tf.keras.layers.Layer):
    def __init__(self, units, use_projection=True, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.use_projection = use_projection
        self.dense1 = tf.keras.layers.Dense(units, activation="relu")
        self.dense2 = tf.keras.layers.Dense(units)
        self.proj = tf.keras.layers.Dense(units, use_bias=False)

    def call(self, x):
        h = self.dense2(self.dense1(x))
        shortcut = tf.cond(self.use_projection, lambda: self.proj(x), lambda: x)  # XLA: cond
        return tf.nn.relu(h + shortcut)


class Classifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.block = ResidualBlock(6, use_projection=True)
        self.head = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.head(self.block(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    m = Classifier()
    m(tf.zeros([2, 4]))
    _KEEP.append(m)
    return m, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0,)
