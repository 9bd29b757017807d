"""Source: https://github.com/keras-team/keras/issues/17094 ("`Conv2DTranspose` constfolding issue with variable batch size": with `batch_size=None` the layer's output shape is computed from `tf.shape` at run time instead of being folded). Under `jit_compile=True` on TF 2.21 this is not a failure: the decoder below, compiled with an `input_signature` whose batch dimension is `None`, compiles and matches eager."""
import tensorflow as tf


class Decoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.up = tf.keras.layers.Conv2DTranspose(8, 3, strides=2, padding="same")
        self.out = tf.keras.layers.Conv2D(3, 1)
        self.up.build((None, 8, 8, 4))
        self.out.build((None, 16, 16, 8))

    def call(self, z):
        return self.out(tf.nn.relu(self.up(z)))


decoder = Decoder()


@tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 8, 8, 4], tf.float32)])
def decode(z):
    return decoder(z)


# --- oracle ---
def ENTRY():
    return decode, (tf.reshape(tf.range(2 * 8 * 8 * 4, dtype=tf.float32), [2, 8, 8, 4]) / 512.0,)
