"""Source: https://github.com/tensorflow/tensorflow/issues/43698 (a video-restoration model collects per-frame features in `tf.TensorArray(size=0, dynamic_size=True)` inside a loop over the frames and stacks them for the next convolution; the stacked tensor loses its shape, and a zero-size growing array is not something XLA can size statically)."""
import tensorflow as tf


class FrameAlignment(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv_first = tf.keras.layers.Conv2D(4, 3, padding="same")
        self.fuse = tf.keras.layers.Conv2D(2, 1)

    def call(self, frames):
        num_frames = tf.shape(frames)[1]
        features = tf.TensorArray(tf.float32, size=0, dynamic_size=True)  # XLA: shape
        i = tf.constant(0)
        while i < num_frames:
            features = features.write(i, self.conv_first(frames[:, i]))
            i += 1
        stacked = tf.transpose(features.stack(), [1, 0, 2, 3, 4])
        fused = tf.reduce_mean(stacked, axis=1)
        return self.fuse(fused)


# --- oracle ---
_KEEP = []


def ENTRY():
    m = FrameAlignment()
    m(tf.zeros([1, 3, 6, 6, 2]))
    _KEEP.append(m)
    x = tf.reshape(tf.range(216, dtype=tf.float32), [1, 3, 6, 6, 2]) / 216.0
    return m, (x,)
