"""Source: https://github.com/tensorflow/tensorflow/issues/62206 ("Different behaviors of raw_ops.Sigmoid can be observed when jitcompiled=true": on `bfloat16` inputs the compiled sigmoid differs from the eager one beyond 1e-3). Here a gated block of a mobile vision model run in `bfloat16`, a hard gate `sigmoid(relu6(x))` over the channel mean, in a jit-compiled forward pass."""
import tensorflow as tf


class GatedBlock(tf.keras.layers.Layer):
    def __init__(self, channels, **kwargs):
        super().__init__(dtype="bfloat16", **kwargs)
        self.conv = tf.keras.layers.Conv2D(channels, 1, dtype="bfloat16")

    def call(self, x):
        squeeze = tf.reduce_mean(x, axis=[1, 2], keepdims=True)
        gate = tf.math.sigmoid(tf.nn.relu6(squeeze * 4.0))  # XLA: op
        return self.conv(x * gate)


block = GatedBlock(3)


@tf.function(jit_compile=True)
def forward(x):
    return tf.cast(block(x), tf.float32)


# --- oracle ---
WRAP = False


def ENTRY():
    x = tf.cast(tf.random.stateless_normal([2, 5, 5, 3], seed=[7, 8]), tf.bfloat16)
    return forward, (x,)
