"""Source: https://github.com/keras-team/keras-cv/pull/1499 (RandomlyZoomedCrop, old and vectorized, "fail to run with XLA due to lacking ImageProjectiveTransformV3 support" (tensorflow/tensorflow#55194): a zoom augmentation written with the projective-transform op inside the compiled step)."""
import tensorflow as tf


def zoom_images(images, zoom):
    batch = tf.shape(images)[0]
    h = tf.cast(tf.shape(images)[1], tf.float32)
    w = tf.cast(tf.shape(images)[2], tf.float32)
    ones, zeros = tf.ones([batch]), tf.zeros([batch])
    transforms = tf.stack([zoom, zeros, (1.0 - zoom) * w / 2.0, zeros, zoom, (1.0 - zoom) * h / 2.0, zeros, zeros],
                          axis=1)
    return tf.raw_ops.ImageProjectiveTransformV3(  # XLA: op
        images=images, transforms=transforms, output_shape=tf.shape(images)[1:3], fill_value=0.0,
        interpolation="BILINEAR", fill_mode="REFLECT")


@tf.function(jit_compile=True)
def augment_and_pool(images, zoom):
    return tf.reduce_mean(zoom_images(images, zoom), axis=[1, 2])


# --- oracle ---
def ENTRY():
    images = tf.reshape(tf.range(2 * 6 * 6, dtype=tf.float32), [2, 6, 6, 1]) / 72.0
    return augment_and_pool, (images, tf.constant([0.8, 1.2]))
