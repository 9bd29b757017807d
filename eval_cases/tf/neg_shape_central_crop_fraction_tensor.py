"""Source: https://github.com/tensorflow/tensorflow/issues/23337 (near miss, compiles on TF 2.21 XLA:CPU when the fraction is an argument: "Crop factor must be a compile-time constant" for tf.image.central_crop under XLA): the crop fraction is a schedule value passed as a tensor."""
import tensorflow as tf


@tf.function(jit_compile=True)
def zoom_augment(images, crop_fraction):
    cropped = tf.image.central_crop(images, crop_fraction)
    return tf.image.resize(cropped, [8, 8])


# --- oracle ---
def ENTRY():
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32) / 384.0, [2, 8, 8, 3])
    return zoom_augment, (images, tf.constant(0.5))
