"""Source: https://github.com/tensorflow/tensorflow/issues/60485 (Cumsum has no XLA kernel for 8- and 16-bit integers; uint8 is refused the same way on TF 2.21). A summed-area table of an 8-bit image computed before converting it to float."""
import tensorflow as tf


class BoxFilter(tf.keras.layers.Layer):
    def call(self, images):
        pixels = tf.cast(images, tf.uint8)
        rows = tf.math.cumsum(pixels, axis=1)  # XLA: op
        table = tf.cast(rows, tf.float32)
        return tf.math.cumsum(table, axis=2) / 255.0


box = BoxFilter()


@tf.function(jit_compile=True)
def features(images):
    return box(images)


# --- oracle ---
def ENTRY():
    images = tf.reshape(tf.range(2 * 4 * 4 * 1) % 7, [2, 4, 4, 1])
    return features, (images,)
