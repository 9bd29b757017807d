"""Source: https://github.com/keras-team/keras-cv/pull/1435 ("Vectorize RandomZoom": both the old and the vectorized `RandomZoom` fail to run with XLA because `ImageProjectiveTransformV3` has no XLA kernel). Here a contrastive pre-training pipeline zooms each batch with `tf.keras.layers.RandomZoom` inside its jit-compiled augmentation-and-embedding step."""
import tensorflow as tf


class ContrastiveAugmenter:
    def __init__(self):
        self.zoom = tf.keras.layers.RandomZoom(0.2, seed=11)
        self.encoder = tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
        ])

    @tf.function(jit_compile=True)
    def view_embeddings(self, images):
        view = self.zoom(images, training=True)  # XLA: op
        return self.encoder(view)


# --- oracle ---
_KEEP = []


def ENTRY():
    augmenter = ContrastiveAugmenter()
    _KEEP.append(augmenter)
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32) / 384.0, [2, 8, 8, 3])
    return augmenter.view_embeddings, (images,)


COMPARE = False
