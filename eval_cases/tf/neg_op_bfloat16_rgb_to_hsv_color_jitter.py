"""Source: https://github.com/tensorflow/tensorflow/issues/62295 (tf.raw_ops.RGBToHSV on bfloat16 images gave different results with jit_compile=True on TF 2.14 CPU; on TF 2.21 XLA:CPU the bfloat16 color-jitter step through HSV matches eager within the oracle tolerance)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def hue_shift(images, delta):
    hsv = tf.image.rgb_to_hsv(images)
    h, s, v = tf.unstack(hsv, axis=-1)
    h = tf.math.floormod(h + delta, tf.cast(1.0, h.dtype))
    return tf.image.hsv_to_rgb(tf.stack([h, s, v], axis=-1))


# --- oracle ---
def ENTRY():
    images = tf.cast(tf.reshape(tf.range(2 * 4 * 4 * 3, dtype=tf.float32) / 96.0, [2, 4, 4, 3]), tf.bfloat16)
    return hue_shift, (images, tf.constant(0.1, tf.bfloat16))
