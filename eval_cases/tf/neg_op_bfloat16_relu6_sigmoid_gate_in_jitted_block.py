"""Source: https://github.com/tensorflow/tensorflow/issues/62206 (the usual mixed-precision practice: compute the gate's sigmoid in float32 and cast back, so the compiled and eager gates agree to float32 precision). Gated block whose gate is computed in float32, jit-compiled."""
import tensorflow as tf


class GatedBlock(tf.keras.layers.Layer):
    def __init__(self, channels, **kwargs):
        super().__init__(**kwargs)
        self.conv = tf.keras.layers.Conv2D(channels, 1)

    def call(self, x):
        squeeze = tf.reduce_mean(tf.cast(x, tf.float32), axis=[1, 2], keepdims=True)
        gate = tf.math.sigmoid(tf.nn.relu6(squeeze * 4.0))
        return self.conv(tf.cast(x, tf.float32) * gate)


block = GatedBlock(3)


@tf.function(jit_compile=True)
def forward(x):
    return block(x)


# --- oracle ---
WRAP = False


def ENTRY():
    x = tf.cast(tf.random.stateless_normal([2, 5, 5, 3], seed=[7, 8]), tf.bfloat16)
    return forward, (x,)
