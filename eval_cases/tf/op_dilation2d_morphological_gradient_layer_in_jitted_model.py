"""Source: https://github.com/Jacobiano/morpholayers/issues/8 ("[BUG] tf2xla conversion failed when using GPU with tensorflow >2.16.1": morpholayers' grey-scale dilation layer calls `tf.nn.dilation2d`, and once Keras compiles the train step with XLA the `Dilation2D` op fails to convert). Here a learnable morphological-gradient layer (dilation minus erosion with a trainable structuring element) in an edge-detection model whose forward pass is jit-compiled."""
import tensorflow as tf


class MorphologicalGradient(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.se = self.add_weight(name="se", shape=(3, 3, int(input_shape[-1])), initializer="zeros")

    def call(self, x):
        dil = tf.nn.dilation2d(x, self.se, strides=[1, 1, 1, 1], padding="SAME",  # XLA: op
                               data_format="NHWC", dilations=[1, 1, 1, 1])
        ero = tf.nn.erosion2d(x, self.se, strides=[1, 1, 1, 1], padding="SAME",  # XLA: op
                              data_format="NHWC", dilations=[1, 1, 1, 1])
        return dil - ero


class EdgeNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.morph = MorphologicalGradient()
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
