"""Source: https://github.com/tensorflow/tensorflow/issues/36963 ("image.resize tensor as size argument not working in tf.function": a multi-scale module computes each level's size from the input shape times a scale passed as a tensor; XLA needs the `size` of `ResizeBilinear` as a compile-time constant, so under `jit_compile=True` the program is specialised to the scale's value or refused). Here a feature-pyramid block whose scales are handed to the compiled call as a tensor."""
import tensorflow as tf


class PyramidBlock(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.conv = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")

    def call(self, images, scales):
        feats = self.conv(images)
        hw = tf.cast(tf.shape(feats)[1:3], tf.float32)
        levels = []
        for i in range(2):
            size = tf.cast(hw * scales[i], tf.int32)
            level = tf.image.resize(feats, size)  # XLA: shape
            levels.append(tf.reduce_mean(level, axis=[1, 2]))
        return tf.concat(levels, axis=-1)


# --- oracle ---
def ENTRY():
    block = PyramidBlock()
    images = tf.reshape(tf.range(192, dtype=tf.float32), [1, 8, 8, 3]) / 192.0
    return block, (images, tf.constant([0.5, 0.25]))
