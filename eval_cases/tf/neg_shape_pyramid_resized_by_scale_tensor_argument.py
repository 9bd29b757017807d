"""Source: https://github.com/tensorflow/tensorflow/issues/36963 (the static form: the pyramid's scales are Python floats of the layer's configuration and the input size is static, so every resize size is known when the function is traced and XLA compiles it). Feature-pyramid block with configured scales."""
import tensorflow as tf


class PyramidBlock(tf.keras.layers.Layer):
    def __init__(self, scales=(0.5, 0.25), **kwargs):
        super().__init__(**kwargs)
        self.scales = scales
        self.conv = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")

    def call(self, images):
        feats = self.conv(images)
        h, w = feats.shape[1], feats.shape[2]
        levels = []
        for scale in self.scales:
            level = tf.image.resize(feats, [int(h * scale), int(w * scale)])
            levels.append(tf.reduce_mean(level, axis=[1, 2]))
        return tf.concat(levels, axis=-1)


# --- oracle ---
def ENTRY():
    block = PyramidBlock()
    images = tf.reshape(tf.range(192, dtype=tf.float32), [1, 8, 8, 3]) / 192.0
    return block, (images,)
