"""Source: https://github.com/tensorflow/tensorflow/issues/32839 (a DLA-style residual block picks its shortcut by comparing `tf.shape(bottom)[-1]` with the filter count; the comparison is a tensor, so the `if` becomes a tf.cond; on TF 2.21 XLA:CPU, with input and output channels that differ only in the first unit, the block compiles and matches eager)."""
import tensorflow as tf


class ResidualUnit(tf.keras.layers.Layer):
    def __init__(self, filters):
        super().__init__()
        self.filters = filters
        self.conv = tf.keras.layers.Conv2D(filters, 3, padding="same", activation="relu")
        self.project = tf.keras.layers.Conv2D(filters, 1)

    def call(self, bottom):
        conv = self.conv(bottom)
        input_channels = tf.shape(bottom)[-1]
        if input_channels == self.filters:
            shortcut = bottom
        else:
            shortcut = self.project(bottom)
        return conv + shortcut


class Backbone(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.unit1 = ResidualUnit(4)
        self.unit2 = ResidualUnit(4)
        self.pool = tf.keras.layers.GlobalAveragePooling2D()

    def call(self, images):
        return self.pool(self.unit2(self.unit1(images)))


# --- oracle ---
_KEEP = []


def ENTRY():
    model = Backbone()
    _KEEP.append(model)
    images = tf.reshape(tf.range(2 * 6 * 6 * 3, dtype=tf.float32), [2, 6, 6, 3]) / 216.0
    return model, (images,)
