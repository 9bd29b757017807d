"""Source: https://github.com/keras-team/keras/issues/15360 (a Keras layer appends per-example results to a Python list inside `for batch in tf.range(batch_size)`)."""
import tensorflow as tf


class OuterProductLayer(tf.keras.layers.Layer):
    def call(self, inputs):
        outer = []
        batch_size = tf.shape(inputs)[0]
        for batch in tf.range(batch_size):
            row = inputs[batch]
            outer.append(tf.reshape(row[:, None] * row[None, :], [1, -1]))  # XLA: cond
        return tf.concat(outer, axis=0)


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = OuterProductLayer()
    _KEEP.append(layer)
    return layer, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]),)
