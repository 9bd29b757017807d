"""Source: https://github.com/tensorflow/tensorflow/issues/46447 (near miss, fixed: bilinear tf.image.resize with half-pixel centers now has an XLA lowering), a U-Net decoder upsampling."""
import tensorflow as tf


class DecoderBlock(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(2, 3, padding="same")

    def call(self, x, skip):
        up = tf.image.resize(x, [skip.shape[1], skip.shape[2]], method="bilinear")
        return self.conv(tf.concat([up, skip], axis=-1))


# --- oracle ---
_KEEP = []


def ENTRY():
    block = DecoderBlock()
    _KEEP.append(block)
    x = tf.reshape(tf.range(2 * 4 * 4 * 2, dtype=tf.float32) / 64.0, [2, 4, 4, 2])
    return block, (x, tf.ones([2, 8, 8, 2]))
