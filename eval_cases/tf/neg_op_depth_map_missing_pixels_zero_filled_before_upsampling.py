"""Source: https://github.com/tensorflow/tensorflow/issues/120240 ("XLA jit_compile=True over-propagates NaN in tf.image.resize bilinear output"). The usual fix in depth completion: fill missing (NaN) pixels with zeros and carry a validity mask, upsample both bilinearly and renormalise, so no NaN reaches the resize."""
import numpy as np
import tensorflow as tf


class DepthDecoder(tf.Module):
    @tf.function(jit_compile=True)
    def __call__(self, sparse_depth):
        valid = tf.cast(tf.logical_not(tf.math.is_nan(sparse_depth)), tf.float32)
        filled = tf.where(valid > 0.0, sparse_depth, tf.zeros_like(sparse_depth))
        up = tf.image.resize(filled, [5, 5], method="bilinear")
        w = tf.image.resize(valid, [5, 5], method="bilinear")
        return up / tf.maximum(w, 1e-3)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    dec = DepthDecoder()
    _KEEP.append(dec)
    depth = np.arange(1, 28, dtype=np.float32).reshape(1, 3, 3, 3)
    depth[0, 1, 2, 0] = np.nan
    return dec.__call__, (tf.constant(depth),)
