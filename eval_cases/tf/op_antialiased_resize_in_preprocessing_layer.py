"""Source: https://github.com/tensorflow/tensorflow/issues/39246 (tf.image.resize with antialias=True runs the ScaleAndTranslate kernel, which only exists on CPU; a jit-compiled model that downsamples with antialiasing inside its call cannot be compiled by XLA)."""
import tensorflow as tf


class Thumbnail(tf.keras.layers.Layer):
    def call(self, images):
        return tf.image.resize(images, (4, 4), antialias=True)  # XLA: op


model = tf.keras.Sequential([Thumbnail(), tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)])


@tf.function(jit_compile=True)
def classify(images):
    return model(images)


# --- oracle ---
def ENTRY():
    return classify, (tf.reshape(tf.range(2 * 8 * 8, dtype=tf.float32), [2, 8, 8, 1]) / 128.0,)
