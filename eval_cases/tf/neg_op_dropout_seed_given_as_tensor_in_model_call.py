"""Source: https://github.com/tensorflow/tensorflow/issues/108502 (the fix: give `tf.nn.dropout` a Python integer seed, which the traced, jit-compiled function accepts). Regressor applying functional dropout with an integer seed."""
import tensorflow as tf


class NoisyRegressor(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(16, activation="relu")
        self.d2 = tf.keras.layers.Dense(8, activation="tanh")
        self.out = tf.keras.layers.Dense(1)
        self.dropout_seed = 456

    def call(self, x):
        x = self.d1(x)
        x = tf.nn.dropout(x, rate=0.3, seed=self.dropout_seed)
        x = self.d2(x)
        return self.out(x)


# --- oracle ---
COMPARE = False


def ENTRY():
    model = NoisyRegressor()
    return model, (tf.reshape(tf.range(20, dtype=tf.float32), [4, 5]) / 20.0,)
