"""Source: https://github.com/tensorflow/probability/issues/1758 ("tfp.stats.histogram cannot be compiled by XLA?": count_integers calls bincount with a length derived from the data, "Input 1 to node .../bincount/Bincount must be a compile-time constant")."""
import tensorflow as tf


class IntensityHistogram(tf.keras.layers.Layer):
    def call(self, images):
        bins = tf.cast(tf.clip_by_value(images, 0.0, 0.999) * 8.0, tf.int32)
        flat = tf.reshape(bins, [-1])
        counts = tf.math.bincount(flat, minlength=tf.reduce_max(flat) + 1)  # XLA: shape
        return tf.cast(counts, tf.float32) / tf.cast(tf.size(flat), tf.float32)


layer = IntensityHistogram()


@tf.function(jit_compile=True)
def histogram_features(images):
    return tf.reduce_sum(tf.square(layer(images)))


# --- oracle ---
def ENTRY():
    return histogram_features, (tf.reshape(tf.range(32, dtype=tf.float32), [2, 4, 4, 1]) / 32.0,)
