"""Source: https://github.com/keras-team/keras-core/issues/762 ("Compiled model retracing calls to random functions": a model compiled with `jit_compile=True` whose dropout layer draws from a seed that changes on every call is traced again at every call). Here an image-augmentation step compiled with `jit_compile=True` takes the per-step random seed as a Python int taken from the step counter, so every training step is a new trace and a new XLA compilation."""
import tensorflow as tf


class Augmenter:
    def __init__(self, rate=0.25):
        self.rate = rate

    @tf.function(jit_compile=True)
    def augment(self, images, seed):
        noise = tf.random.stateless_uniform(tf.shape(images), seed=[seed, 7])
        keep = tf.cast(noise >= self.rate, images.dtype)
        return images * keep / (1.0 - self.rate)


def augment_epoch(augmenter, batches):
    out = []
    for step, images in enumerate(batches):
        out.append(augmenter.augment(images, step))  # XLA: retrace
    return out


# --- oracle ---
_KEEP = []


def ENTRY():
    aug = Augmenter()
    _KEEP.append(aug)
    return aug.augment, (tf.ones([2, 4, 4, 1]), 0)


def ALT_ARGS():
    return [(tf.ones([2, 4, 4, 1]), 1), (tf.ones([2, 4, 4, 1]), 2)]


WRAP = False
