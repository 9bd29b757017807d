"""Source: https://github.com/tensorflow/tensorflow/issues/108660 (XLA JIT compilation fails with bicubic resizing: ResizeBicubic has no XLA_CPU_JIT kernel), here through the Keras Resizing layer."""
import tensorflow as tf


class Upscaler(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.resize = tf.keras.layers.Resizing(8, 8, interpolation="bicubic")
        self.conv = tf.keras.layers.Conv2D(1, 3, padding="same")

    def call(self, x):
        return self.conv(self.resize(x))  # XLA: op


# --- oracle ---
_KEEP = []


def ENTRY():
    m = Upscaler()
    _KEEP.append(m)
    return m, (tf.reshape(tf.range(2 * 4 * 4, dtype=tf.float32) / 32.0, [2, 4, 4, 1]),)
