"""Source: https://github.com/tensorflow/tensorflow/issues/105334 (a layer draws a fresh Glorot-initialised projection in `call` from `tf.shape(x)`; the initializer's fan computation calls `int()` on the dimensions, which are symbolic tensors under jit_compile)."""
import tensorflow as tf


class RandomProjection(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.init = tf.keras.initializers.GlorotUniform(seed=3)

    def call(self, x):
        in_dim = tf.shape(x)[-1]
        kernel = self.init([in_dim, self.units])  # XLA: host
        return tf.matmul(x, kernel)


class Encoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = RandomProjection(4)
        self.out = tf.keras.layers.Dense(2)

    def call(self, x):
        return self.out(tf.nn.relu(self.proj(x)))


# --- oracle ---
_KEEP = []
COMPARE = False


def ENTRY():
    model = Encoder()
    _KEEP.append(model)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [2, 6]) / 12.0
    return model, (x,)
