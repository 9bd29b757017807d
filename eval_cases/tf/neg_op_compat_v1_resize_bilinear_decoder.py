"""Source: https://github.com/tensorflow/tensorflow/issues/11905 (No registered 'ResizeBilinear' OpKernel for XLA_CPU_JIT, fixed since by an XLA kernel): the TF1 name tf.compat.v1.image.resize_bilinear in a decoder's compiled forward pass now compiles."""
import tensorflow as tf


class Decoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(2, 3, padding="same")

    def call(self, features):
        up = tf.compat.v1.image.resize_bilinear(features, [8, 8], half_pixel_centers=True)
        return self.conv(up)


decoder = Decoder()


@tf.function(jit_compile=True)
def decode(features):
    return decoder(features)


# --- oracle ---
def ENTRY():
    return decode, (tf.reshape(tf.range(2 * 4 * 4 * 3, dtype=tf.float32) / 96.0, [2, 4, 4, 3]),)
