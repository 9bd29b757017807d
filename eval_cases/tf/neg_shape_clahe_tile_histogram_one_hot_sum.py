"""Source: https://github.com/tensorflow/addons/pull/2362 (the XLA-friendly histogram named in the CLAHE discussion: `tf.reduce_sum(tf.one_hot(levels, 256))`, whose size is the fixed number of levels, compiles with XLA where `tf.math.bincount` does not). Contrast-equalisation layer inside a jit-compiled model."""
import tensorflow as tf


class HistogramEqualize(tf.keras.layers.Layer):
    def call(self, images):
        levels = tf.cast(tf.clip_by_value(images * 255.0, 0.0, 255.0), tf.int32)
        equalized = []
        for i in range(images.shape[0]):
            hist = tf.reduce_sum(tf.one_hot(tf.reshape(levels[i], [-1]), 256, dtype=tf.int32), axis=0)
            cdf = tf.cast(tf.cumsum(hist), tf.float32)
            cdf = cdf / cdf[-1]
            equalized.append(tf.gather(cdf, levels[i]))
        return tf.stack(equalized)


class Enhancer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.equalize = HistogramEqualize()
        self.conv = tf.keras.layers.Conv2D(2, 3, padding="same")

    def call(self, images):
        return self.conv(self.equalize(images))


# --- oracle ---
def ENTRY():
    model = Enhancer()
    images = tf.reshape(tf.range(128, dtype=tf.float32), [2, 8, 8, 1]) / 160.0
    return model, (images,)
