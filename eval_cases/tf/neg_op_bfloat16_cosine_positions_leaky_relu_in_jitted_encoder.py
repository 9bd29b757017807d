"""Source: https://github.com/tensorflow/tensorflow/issues/62223 ("Different Behavior of tf.raw_ops.Cos+tf.raw_ops.LeakyRelu with jit_compile=True": on `bfloat16` inputs the compiled `Cos` followed by `LeakyRelu` differs from the eager result). Here a `bfloat16` encoder block that mixes a cosine of its projected inputs (a Fourier-feature embedding) through a leaky ReLU, in a jit-compiled forward pass. Written as the failing case; does not reproduce on TF 2.21 CPU (the compiled `bfloat16` block matches eager execution within the oracle's tolerance), so it is a negative."""
import tensorflow as tf


class FourierBlock(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(dtype="bfloat16", **kwargs)
        self.proj = tf.keras.layers.Dense(units, dtype="bfloat16")

    def call(self, x):
        phase = self.proj(x) * 3.0
        return tf.nn.leaky_relu(tf.math.cos(phase), alpha=9.5)


block = FourierBlock(8)


@tf.function(jit_compile=True)
def forward(x):
    return tf.cast(block(x), tf.float32)


# --- oracle ---
WRAP = False


def ENTRY():
    x = tf.cast(tf.random.stateless_normal([4, 6, 5], seed=[3, 4]), tf.bfloat16)
    return forward, (x,)
