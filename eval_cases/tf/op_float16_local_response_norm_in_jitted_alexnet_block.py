"""Source: https://github.com/openxla/xla/issues/43450 ("tf.raw_ops.LRN with float16 input causes XLA mixed-precision error: Seen floating point types of different precisions": the TF-to-XLA lowering of LRN promotes to float32 inside a float16 computation). Here an AlexNet-style block run in half precision, with `tf.nn.local_response_normalization` after the first convolution, in a jit-compiled forward pass."""
import tensorflow as tf


class AlexBlock(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu", dtype="float16")
        self.pool = tf.keras.layers.MaxPool2D(2, dtype="float16")

    @tf.function(jit_compile=True)
    def call(self, images):
        x = self.conv(tf.cast(images, tf.float16))
        x = tf.nn.local_response_normalization(x, depth_radius=2, bias=1.0, alpha=1e-4, beta=0.75)  # XLA: op
        return tf.cast(self.pool(x), tf.float32)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = AlexBlock()
    _KEEP.append(m)
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32), [2, 8, 8, 3]) / 384.0
    return m, (images,)
