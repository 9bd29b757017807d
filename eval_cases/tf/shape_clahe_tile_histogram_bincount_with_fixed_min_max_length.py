"""Source: https://github.com/tensorflow/addons/pull/2362 (a CLAHE op building its tile histograms with `tf.math.bincount`, "not XLA compatible"). Written as the fixed-length near miss, `minlength` and `maxlength` both 256, and renamed after labelling: the compiler says it still fails on TF 2.21 CPU, `value_specialized`, because `tf.math.bincount` computes its output size in the graph from the largest value, so XLA can only compile it by specialising on the pixel values. Contrast-equalisation layer inside a jit-compiled model."""
import tensorflow as tf


class HistogramEqualize(tf.keras.layers.Layer):
    def call(self, images):
        levels = tf.cast(tf.clip_by_value(images * 255.0, 0.0, 255.0), tf.int32)
        equalized = []
        for i in range(images.shape[0]):
            hist = tf.math.bincount(tf.reshape(levels[i], [-1]), minlength=256, maxlength=256)  # XLA: shape
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
