"""Source: https://github.com/tensorflow/tensorflow/issues/62252 (tf.raw_ops.Relu6 followed by Sigmoid in bfloat16 gave different results with jit_compile=True on TF 2.14; on TF 2.21 XLA:CPU the bfloat16 hard-gated activation block matches eager within the oracle tolerance)."""
import tensorflow as tf


class GatedActivation(tf.keras.layers.Layer):
    def call(self, x):
        gate = tf.sigmoid(tf.nn.relu6(x))
        return x * gate


layer = GatedActivation()


@tf.function(jit_compile=True)
def gated(x):
    return layer(x)


# --- oracle ---
def ENTRY():
    x = tf.cast(tf.reshape(tf.linspace(-8.0, 8.0, 90), [10, 9]) * 1.37, tf.bfloat16)
    return gated, (x,)
