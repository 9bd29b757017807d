"""Source: https://github.com/tensorflow/tensorflow/issues/108660 (XLA JIT compilation fails with bicubic resizing: ResizeBicubic has no XLA_CPU_JIT kernel), here through the TF1 spelling tf.compat.v1.image.resize_bicubic in a super-resolution model's compiled step."""
import tensorflow as tf


class SuperResolution(tf.keras.Model):
    def __init__(self, scale=2):
        super().__init__()
        self.scale = scale
        self.refine = tf.keras.layers.Conv2D(3, 3, padding="same")

    def call(self, lowres):
        size = [lowres.shape[1] * self.scale, lowres.shape[2] * self.scale]
        upsampled = tf.compat.v1.image.resize_bicubic(lowres, size)  # XLA: op
        return upsampled + self.refine(upsampled)


model = SuperResolution()


@tf.function(jit_compile=True)
def enhance(lowres):
    return model(lowres)


# --- oracle ---
def ENTRY():
    return enhance, (tf.reshape(tf.range(2 * 4 * 4 * 3, dtype=tf.float32) / 96.0, [2, 4, 4, 3]),)
