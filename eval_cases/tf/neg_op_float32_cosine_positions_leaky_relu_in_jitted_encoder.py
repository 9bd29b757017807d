"""Source: https://github.com/tensorflow/tensorflow/issues/62223 ("Different Behavior of tf.raw_ops.Cos+tf.raw_ops.LeakyRelu with jit_compile=True" on `bfloat16` inputs). The near miss: the same Fourier-feature block computed in `float32`, where the compiled and eager results agree."""
import tensorflow as tf


class FourierBlock(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(dtype="float32", **kwargs)
        self.proj = tf.keras.layers.Dense(units)

    def call(self, x):
        phase = self.proj(x) * 3.0
        return tf.nn.leaky_relu(tf.math.cos(phase), alpha=9.5)


block = FourierBlock(8)


@tf.function(jit_compile=True)
def forward(x):
    return block(x)


# --- oracle ---
WRAP = False


def ENTRY():
    x = tf.random.stateless_normal([4, 6, 5], seed=[3, 4])
    return forward, (x,)
