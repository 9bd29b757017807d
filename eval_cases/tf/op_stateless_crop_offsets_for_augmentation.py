"""Source: https://github.com/tensorflow/tensorflow/issues/121243 (tf.random.stateless_uniform produces different values under XLA than in eager and graph mode for the same seed: seeded augmentation picks other crop offsets when the step is compiled)."""
import tensorflow as tf


def seeded_random_crop(images, seed, size=4):
    height, width = images.shape[1], images.shape[2]
    offsets = tf.random.stateless_uniform([2], seed=seed, maxval=1.0)  # XLA: op
    top = tf.cast(offsets[0] * (height - size + 1), tf.int32)
    left = tf.cast(offsets[1] * (width - size + 1), tf.int32)
    return tf.slice(images, [0, top, left, 0], [-1, size, size, -1])


def augment(images, seed):
    return tf.reduce_mean(seeded_random_crop(images, seed), axis=[1, 2])


# --- oracle ---
def ENTRY():
    images = tf.reshape(tf.range(2 * 8 * 8 * 1, dtype=tf.float32), [2, 8, 8, 1])
    return augment, (images, tf.constant([1, 2]))
