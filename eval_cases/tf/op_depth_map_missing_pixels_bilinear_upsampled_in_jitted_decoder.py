"""Source: https://github.com/tensorflow/tensorflow/issues/120240 ("XLA jit_compile=True over-propagates NaN in tf.image.resize bilinear output": one NaN pixel turns the whole resized channel to NaN under XLA, while eager keeps the NaN local). Here a depth-completion decoder upsamples a sparse depth map whose missing pixels are NaN with bilinear `tf.image.resize` inside its jit-compiled call."""
import numpy as np
import tensorflow as tf


class DepthDecoder(tf.Module):
    @tf.function(jit_compile=True)
    def __call__(self, sparse_depth):
        up = tf.image.resize(sparse_depth, [5, 5], method="bilinear")  # XLA: op
        return up


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    dec = DepthDecoder()
    _KEEP.append(dec)
    depth = np.arange(1, 28, dtype=np.float32).reshape(1, 3, 3, 3)
    depth[0, 1, 2, 0] = np.nan
    return dec.__call__, (tf.constant(depth),)
