"""Source: https://github.com/tensorflow/tpu/issues/971 ("Reproducibility when training models on TPU VMs": seeded stateful random ops inside the compiled step ignore their seeds under XLA). The reproducible layout: the crop offsets and flip decision are drawn with a seeded NumPy generator in the input pipeline and passed to the jit-compiled augmentation as tensors."""
import numpy as np
import tensorflow as tf

CROP = 6


@tf.function(jit_compile=True)
def augment(images, offsets, flip):
    n = images.shape[0]
    crops = tf.slice(images, tf.stack([0, offsets[0], offsets[1], 0]), [n, CROP, CROP, images.shape[3]])
    return tf.where(flip, tf.reverse(crops, axis=[2]), crops)


def draw_params(rng, size=8):
    offsets = rng.integers(0, size - CROP + 1, size=2).astype("int32")
    return tf.constant(offsets), tf.constant(bool(rng.random() < 0.5))


# --- oracle ---
WRAP = False


def ENTRY():
    images = tf.reshape(tf.range(2 * 8 * 8 * 1, dtype=tf.float32), [2, 8, 8, 1])
    offsets, flip = draw_params(np.random.default_rng(971))
    return augment, (images, offsets, flip)
