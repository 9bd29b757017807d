"""Source: https://github.com/keras-team/keras-cv/pull/435 (MaybeApply benchmarked under model.compile(jit_compile=...): applying a wrapped augmentation to a random subset of the batch with a per-sample tf.where compiles; only layers with unsupported ops break XLA)."""
import tensorflow as tf


class MaybeApply(tf.keras.layers.Layer):
    def __init__(self, layer, rate=0.5, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer
        self.rate = rate

    def call(self, images, training=True):
        if not training:
            return images
        apply = tf.random.uniform([tf.shape(images)[0], 1, 1, 1]) < self.rate
        return tf.where(apply, self.layer(images), images)


augment = MaybeApply(tf.keras.layers.Lambda(lambda x: tf.image.flip_left_right(x)), rate=0.5)


@tf.function(jit_compile=True)
def augment_batch(images):
    return augment(images, training=True)


# --- oracle ---
COMPARE = False


def ENTRY():
    return augment_batch, (tf.reshape(tf.range(2 * 4 * 4 * 1, dtype=tf.float32), [2, 4, 4, 1]),)
