"""Source: https://github.com/tensorflow/tensorflow/issues/118673 ("XLA gradient of `reduce_max`/`reduce_min` silently returns 0 instead of NaN when input contains NaN"). The near miss: the frames are normalized with `tf.math.divide_no_nan`, so the padded all-zero frame gives zeros instead of NaN, and the compiled and eager gradients of the max-pool agree."""
import tensorflow as tf


class FrameEncoder(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0)

    @tf.function(jit_compile=True)
    def loss_and_grad(self, frames):
        with tf.GradientTape() as tape:
            unit = tf.math.divide_no_nan(frames, tf.norm(frames, axis=-1, keepdims=True))
            pooled = tf.reduce_max(tf.matmul(unit, self.w), axis=1)
            loss = tf.reduce_sum(pooled)
        return loss, tape.gradient(loss, self.w)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    enc = FrameEncoder()
    _KEEP.append(enc)
    frames = tf.concat([tf.reshape(tf.range(1.0, 13.0), [1, 3, 4]), tf.zeros([1, 1, 4])], axis=1)
    return enc.loss_and_grad, (frames,)
