"""Source: https://github.com/tensorflow/tensorflow/issues/108303 ("Inconsistent behavior in tf.TensorArray element_shape parameter between eager and XLA compilation modes": `tf.TensorArray(..., element_shape=tf.shape(x)[1:])` works eagerly, but in the compiled function `tf.shape` is a symbolic tensor and the constructor fails with "Dimension value must be integer or None"). Here a frame encoder that collects per-frame projections in a TensorArray whose element shape is taken from `tf.shape`, in a jit-compiled forward pass."""
import tensorflow as tf


class FrameEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(6)

    @tf.function(jit_compile=True)
    def call(self, frames):
        ta = tf.TensorArray(tf.float32, size=frames.shape[0], element_shape=tf.shape(frames)[1:])  # XLA: shape
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
