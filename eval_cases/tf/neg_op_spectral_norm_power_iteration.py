"""Source: https://github.com/keras-team/keras/pull/19232 ("Fix for TF XLA compilation error for SpectralNormalization": tf.linalg.norm sometimes failed to compile or lost its shape; with the norm written out (sqrt of a sum of squares) the power-iteration spectral normalization compiles under jit_compile)."""
import tensorflow as tf


class SpectralDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=(input_shape[-1], self.units), initializer="glorot_uniform")
        self.u = self.add_weight(name="u", shape=(1, self.units), initializer="ones", trainable=False)

    def call(self, x):
        v = tf.matmul(self.u, self.kernel, transpose_b=True)
        v = v / tf.sqrt(tf.reduce_sum(tf.square(v)) + 1e-12)
        u = tf.matmul(v, self.kernel)
        u = u / tf.sqrt(tf.reduce_sum(tf.square(u)) + 1e-12)
        sigma = tf.reduce_sum(tf.matmul(v, self.kernel) * u)
        self.u.assign(u)
        return tf.matmul(x, self.kernel / sigma)


class Critic:
    def __init__(self):
        self.layer = SpectralDense(3)

    @tf.function(jit_compile=True)
    def __call__(self, x):
        return self.layer(x)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    c = Critic()
    _KEEP.append(c)
    return c, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0,)
