"""Source: https://github.com/tensorflow/tensorflow/issues/62284 ("Different Behavior of tf.raw_ops.AdjustContrastv2 with jit_compile=True": the contrast factor is `tf.random.normal([])` drawn inside the jit-compiled `__call__`). Here a GPU-side augmentation module for a detector draws a random contrast factor with the stateful `tf.random.uniform` inside its jit-compiled call."""
import tensorflow as tf


class ContrastJitter(tf.Module):
    def __init__(self, lower=0.7, upper=1.3):
        super().__init__()
        self.lower = lower
        self.upper = upper

    @tf.function(jit_compile=True)
    def __call__(self, images):
        factor = tf.random.uniform([], self.lower, self.upper)  # XLA: op
        out = tf.image.adjust_contrast(images, factor)
        return tf.clip_by_value(out, 0.0, 1.0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    aug = ContrastJitter()
    _KEEP.append(aug)
    images = tf.reshape(tf.range(2 * 6 * 6 * 3, dtype=tf.float32), [2, 6, 6, 3]) / 216.0
    return aug.__call__, (images,)
