"""Source: https://github.com/keras-team/keras-core/issues/762 ("Compiled model retracing calls to random functions": a model compiled with `jit_compile=True` whose dropout layer draws from a seed that changes on every call is traced again at every call). Here the image-augmentation step receives the per-step seed as an int32 tensor built from the step counter, so one trace and one XLA compilation serve every step. The oracle (TF 2.21, XLA:CPU) still labels it wrong_result: `tf.random.stateless_uniform` with the default algorithm draws different numbers under XLA than eagerly for the same seed, so the compiled augmentation differs from the eager one (an op-level divergence, hence CATEGORY op)."""
import tensorflow as tf


class Augmenter:
    def __init__(self, rate=0.25):
        self.rate = rate

    @tf.function(jit_compile=True)
    def augment(self, images, seed):
        noise = tf.random.stateless_uniform(tf.shape(images), seed=tf.stack([seed, 7]))  # XLA: op
        keep = tf.cast(noise >= self.rate, images.dtype)
        return images * keep / (1.0 - self.rate)


def augment_epoch(augmenter, batches):
    out = []
    for step, images in enumerate(batches):
        out.append(augmenter.augment(images, tf.constant(step, tf.int32)))
    return out


# --- oracle ---
_KEEP = []


def ENTRY():
    aug = Augmenter()
    _KEEP.append(aug)
    return aug.augment, (tf.ones([2, 4, 4, 1]), tf.constant(0, tf.int32))


def ALT_ARGS():
    return [(tf.ones([2, 4, 4, 1]), tf.constant(1, tf.int32)), (tf.ones([2, 4, 4, 1]), tf.constant(2, tf.int32))]


WRAP = False
CATEGORY = "op"
