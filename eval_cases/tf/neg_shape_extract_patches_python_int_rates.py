"""Source: https://github.com/tensorflow/tensorflow/issues/108268 (extract_patches raised "Expected int for argument 'rates'" under jit_compile when a rate was a tf.constant; the documented fix passes Python ints computed from the layer's config, which compiles)."""
import tensorflow as tf


class PatchEmbedding(tf.keras.layers.Layer):
    def __init__(self, projection_dim=8, patch_size=2, **kwargs):
        super().__init__(**kwargs)
        self.patch_size = patch_size
        self.projection = tf.keras.layers.Dense(projection_dim)

    def call(self, x):
        batch_size = tf.shape(x)[0]
        p = self.patch_size
        patches = tf.image.extract_patches(images=x, sizes=[1, p, p, 1], strides=[1, p, p, 1],
                                           rates=[1, 1, 1, 1], padding="VALID")
        patches = tf.reshape(patches, [batch_size, -1, patches.shape[-1]])
        return self.projection(patches)


# --- oracle ---
_KEEP = []


def ENTRY():
    layer = PatchEmbedding()
    _KEEP.append(layer)
    x = tf.reshape(tf.range(2 * 4 * 4 * 3, dtype=tf.float32), [2, 4, 4, 3]) / 96.0
    return layer, (x,)
