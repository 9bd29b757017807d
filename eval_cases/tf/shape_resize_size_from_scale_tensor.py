"""Source: https://github.com/tensorflow/tensorflow/issues/51693 (resizing images under XLA when `size` is not a compile-time constant): the output size comes from a scale passed as a tensor."""
import tensorflow as tf


@tf.function(jit_compile=True)
def rescale(images, scale):
    hw = tf.cast(tf.shape(images)[1:3], tf.float32) * scale
    return tf.image.resize(images, tf.cast(hw, tf.int32))  # XLA: shape


# --- oracle ---
def ENTRY():
    images = tf.reshape(tf.range(2 * 4 * 4, dtype=tf.float32), [2, 4, 4, 1])
    return rescale, (images, tf.constant(1.5))
