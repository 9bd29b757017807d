"""Source: https://github.com/tensorflow/tensorflow/issues/51693 (near miss: an FPN upsampling to the static shape of the finer feature map, known at trace time)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def merge_levels(coarse, fine):
    up = tf.image.resize(coarse, tf.shape(fine)[1:3], method="nearest")
    return up + fine


# --- oracle ---
def ENTRY():
    coarse = tf.reshape(tf.range(2 * 2 * 2 * 3, dtype=tf.float32), [2, 2, 2, 3])
    fine = tf.ones([2, 4, 4, 3])
    return merge_levels, (coarse, fine)
