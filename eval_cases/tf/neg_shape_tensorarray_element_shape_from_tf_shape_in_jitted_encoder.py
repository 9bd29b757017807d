"""Source: https://github.com/tensorflow/tensorflow/issues/108303 ("Inconsistent behavior in tf.TensorArray element_shape parameter between eager and XLA compilation modes" when the element shape comes from `tf.shape`). The fix: take the element shape from the static `frames.shape[1:]`; the same frame encoder in a jit-compiled forward pass."""
import tensorflow as tf


class FrameEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(6)

    @tf.function(jit_compile=True)
    def call(self, frames):
        ta = tf.TensorArray(tf.float32, size=frames.shape[0], element_shape=frames.shape[1:])
        for i in tf.range(frames.shape[0]):
            ta = ta.write(i, frames[i] * tf.cast(i + 1, tf.float32))
        return self.proj(ta.stack())


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = FrameEncoder()
    _KEEP.append(m)
    frames = tf.reshape(tf.range(4 * 5, dtype=tf.float32), [4, 5]) / 20.0
    return m, (frames,)
