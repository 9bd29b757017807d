"""Source: https://github.com/tensorflow/tensorflow/issues/30872 (a model that shrinks spectrograms with tf.image.resize_images(..., method=3), i.e. area resizing, cannot be converted: ResizeArea has no kernel outside TensorFlow's CPU runtime); here the same TF1 area resize in an XLA-compiled audio classifier, where ResizeArea has no XLA_CPU_JIT kernel either."""
import tensorflow as tf


class SpectrogramClassifier(tf.keras.Model):
    def __init__(self, classes=4):
        super().__init__()
        self.flatten = tf.keras.layers.Flatten()
        self.head = tf.keras.layers.Dense(classes)

    def call(self, spectrogram):
        pooled = tf.compat.v1.image.resize_area(spectrogram, [8, 8])  # XLA: op
        return self.head(self.flatten(pooled))


classifier = SpectrogramClassifier()


@tf.function(jit_compile=True)
def logits(spectrogram):
    return classifier(spectrogram)


# --- oracle ---
def ENTRY():
    return logits, (tf.reshape(tf.range(2 * 16 * 16 * 1, dtype=tf.float32) / 512.0, [2, 16, 16, 1]),)
