"""Source: https://github.com/retoschiegg/meta-pseudo-labels/issues/4 ("Cannot convert a symbolic Tensor (switch_case/indexed_case/strided_slice:0) to a numpy array" from NumPy calls in augmentation ops picked by tf.switch_case)."""
import numpy as np
import tensorflow as tf


def brightness(image, magnitude):
    return np.clip(image + magnitude, 0.0, 1.0)  # XLA: host


def contrast(image, magnitude):
    mean = tf.reduce_mean(image)
    return tf.clip_by_value((image - mean) * (1.0 + magnitude) + mean, 0.0, 1.0)


def augment(image, op_index, magnitude):
    return tf.switch_case(op_index, [lambda: brightness(image, magnitude), lambda: contrast(image, magnitude)])


# --- oracle ---
def ENTRY():
    image = tf.reshape(tf.range(12, dtype=tf.float32) / 12.0, [2, 2, 3])
    return augment, (image, tf.constant(1), tf.constant(0.2))
