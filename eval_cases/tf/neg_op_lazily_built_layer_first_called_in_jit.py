"""Source: https://github.com/tensorflow/tensorflow/issues/125391 (a Keras sublayer built lazily on its first call inside a jit_compile=True call gave a silently wrong result on a self-built TF 2.20; on TF 2.21 XLA:CPU the lazily built model matches eager)."""
import tensorflow as tf


class Encoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(4, activation="tanh")
        self.out = tf.keras.layers.Dense(4, activation="tanh")

    @tf.function(jit_compile=True)
    def call(self, x):
        return self.out(self.hidden(x))


def encode(model, x):
    return model(x)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = Encoder()
    _KEEP.append(m)
    return m, (tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]),)
