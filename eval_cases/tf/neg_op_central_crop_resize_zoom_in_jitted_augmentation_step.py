"""Source: https://github.com/keras-team/keras-cv/pull/1435 ("Vectorize RandomZoom": `RandomZoom` cannot run under XLA because `ImageProjectiveTransformV3` has no XLA kernel). Near miss: the contrastive pipeline's jit-compiled augmentation step zooms in with `tf.image.central_crop` and `tf.image.resize` back to the input size, ops that have XLA kernels."""
import tensorflow as tf


class ContrastiveAugmenter:
    def __init__(self):
        self.encoder = tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
        ])

    @tf.function(jit_compile=True)
    def view_embeddings(self, images):
        view = tf.image.central_crop(images, 0.75)
        view = tf.image.resize(view, [8, 8])
        return self.encoder(view)


# --- oracle ---
_KEEP = []


def ENTRY():
    augmenter = ContrastiveAugmenter()
    _KEEP.append(augmenter)
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32) / 384.0, [2, 8, 8, 3])
    return augmenter.view_embeddings, (images,)

