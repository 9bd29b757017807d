"""Source: https://github.com/keras-team/keras/issues/15360 (near miss: the per-example outer products computed for the whole batch at once)."""
import tensorflow as tf


class OuterProductLayer(tf.keras.layers.Layer):
    def call(self, inputs):
        outer = inputs[:, :, None] * inputs[:, None, :]
        return tf.reshape(outer, [tf.shape(inputs)[0], -1])


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = OuterProductLayer()
    _KEEP.append(layer)
    return layer, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]),)
