"""Source: https://github.com/keras-team/keras/pull/20121 (the fix: a Python bool predicate is resolved at trace time, as `smart_cond` does, instead of being handed to `tf.cond`; here the residual block's projection shortcut is chosen with a plain Python `if` on the config flag)."""
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
        if self.use_projection:
            shortcut = self.proj(x)
        else:
            shortcut = x
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
