"""Source: https://github.com/tensorflow/tensorflow/issues/108502 (`tf.nn.dropout(x, rate=0.3, seed=tf.constant(456))` inside a model's `call` runs eagerly but fails under `tf.function(jit_compile=True)` with a TypeError: the op-level seed must be a Python integer when the function is traced). Here a regressor whose call applies functional dropout with a seed held as a tensor."""
import tensorflow as tf


class NoisyRegressor(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(16, activation="relu")
        self.d2 = tf.keras.layers.Dense(8, activation="tanh")
        self.out = tf.keras.layers.Dense(1)
        self.dropout_seed = tf.constant(456)

    def call(self, x):
        x = self.d1(x)
        x = tf.nn.dropout(x, rate=0.3, seed=self.dropout_seed)  # XLA: op
        x = self.d2(x)
        return self.out(x)


# --- oracle ---
COMPARE = False


def ENTRY():
    model = NoisyRegressor()
    return model, (tf.reshape(tf.range(20, dtype=tf.float32), [4, 5]) / 20.0,)
