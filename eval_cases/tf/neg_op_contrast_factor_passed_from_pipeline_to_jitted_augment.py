"""Source: https://github.com/tensorflow/tensorflow/issues/62284 ("Different Behavior of tf.raw_ops.AdjustContrastv2 with jit_compile=True": the contrast factor was a random op inside the compiled function). Near miss: the augmentation module takes the contrast factor as an argument, drawn by the input pipeline, so the jit-compiled call is deterministic in its inputs."""
import tensorflow as tf


class ContrastJitter(tf.Module):
    @tf.function(jit_compile=True)
    def __call__(self, images, factor):
        out = tf.image.adjust_contrast(images, factor)
        return tf.clip_by_value(out, 0.0, 1.0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    aug = ContrastJitter()
    _KEEP.append(aug)
    images = tf.reshape(tf.range(2 * 6 * 6 * 3, dtype=tf.float32), [2, 6, 6, 3]) / 216.0
    return aug.__call__, (images, tf.constant(1.15))
