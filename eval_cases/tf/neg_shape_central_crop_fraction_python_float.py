"""Source: https://github.com/tensorflow/tensorflow/issues/23337 (near miss: the crop fraction is a Python float known at trace time)."""
import tensorflow as tf

CROP_FRACTION = 0.5


@tf.function(jit_compile=True)
def zoom_augment(images):
    cropped = tf.image.central_crop(images, CROP_FRACTION)
    return tf.image.resize(cropped, [8, 8])


# --- oracle ---
def ENTRY():
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32) / 384.0, [2, 8, 8, 3])
    return zoom_augment, (images,)
