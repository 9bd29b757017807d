"""Source: https://github.com/tensorflow/tensorflow/issues/36848 (near miss, no longer reproduces: `if training:` in a custom layer's call with a tensor training flag; AutoGraph turns it into a tf.cond that XLA compiles)."""
import tensorflow as tf


class NoisyDense(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.dense = tf.keras.layers.Dense(units)

    def call(self, x, training=None):
        y = self.dense(x)
        if training:
            y = y * 0.5
        return y


@tf.function(jit_compile=True)
def forward(layer, x, training):
    return layer(x, training=training)


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = NoisyDense(3)
    _KEEP.append(layer)
    return (lambda x, t: forward(layer, x, t)), (tf.constant([[1.0, 2.0]]), tf.constant(True))
