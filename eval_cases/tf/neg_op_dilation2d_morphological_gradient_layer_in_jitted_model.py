"""Source: https://github.com/Jacobiano/morpholayers/issues/8 ("[BUG] tf2xla conversion failed when using GPU with tensorflow >2.16.1", `Dilation2D` inside an XLA-compiled Keras step). With a flat structuring element, grey-scale dilation and erosion are max pooling of the image and of its negation with stride 1, which XLA compiles; the same edge-detection model with that layer, jit-compiled."""
import tensorflow as tf


class FlatMorphologicalGradient(tf.keras.layers.Layer):
    def call(self, x):
        dil = tf.nn.max_pool2d(x, ksize=3, strides=1, padding="SAME")
        ero = -tf.nn.max_pool2d(-x, ksize=3, strides=1, padding="SAME")
        return dil - ero


class EdgeNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.morph = FlatMorphologicalGradient()
        self.head = tf.keras.layers.Conv2D(1, 1)

    @tf.function(jit_compile=True)
    def call(self, images):
        return self.head(self.morph(images))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = EdgeNet()
    _KEEP.append(m)
    images = tf.reshape(tf.range(2 * 8 * 8 * 2, dtype=tf.float32), [2, 8, 8, 2]) / 256.0
    return m, (images,)
