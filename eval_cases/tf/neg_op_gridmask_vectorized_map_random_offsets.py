"""Source: https://github.com/keras-team/keras-cv/pull/146 (GridMask vectorized over the batch with tf.vectorized_map: pfor falls back to a while_loop for RandomUniformInt/Fill/Range; on TF 2.21 XLA:CPU the fallback loop still compiles under jit_compile on XLA:CPU)."""
import tensorflow as tf


def grid_mask(image):
    size = image.shape[0]
    offset = tf.random.uniform((), maxval=3, dtype=tf.int32)
    rows = tf.cast((tf.range(size) + offset) % 4 < 2, image.dtype)
    return image * rows[:, None, None]


@tf.function(jit_compile=True)
def augment(images):
    return tf.vectorized_map(grid_mask, images)


# --- oracle ---
COMPARE = False


def ENTRY():
    return augment, (tf.ones([2, 6, 6, 1]),)
