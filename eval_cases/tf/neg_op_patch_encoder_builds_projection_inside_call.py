"""Source: https://github.com/tensorflow/tensorflow/issues/48878 (the fix: create the patch encoder's `Dense` projection and position `Embedding` once in `__init__`, so the traced, jit-compiled call only uses existing variables). ViT-style patch encoder in a classifier."""
import tensorflow as tf


class PatchEncoder(tf.keras.layers.Layer):
    def __init__(self, num_patches, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.num_patches = num_patches
        self.projection = tf.keras.layers.Dense(projection_dim)
        self.position_embedding = tf.keras.layers.Embedding(num_patches, projection_dim)

    def call(self, patches):
        positions = tf.range(self.num_patches)
        return self.projection(patches) + self.position_embedding(positions)


class TinyViT(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = PatchEncoder(num_patches=4, projection_dim=8)
        self.head = tf.keras.layers.Dense(3)

    def call(self, patches):
        return self.head(tf.reduce_mean(self.encoder(patches), axis=1))


# --- oracle ---
def ENTRY():
    model = TinyViT()
    patches = tf.reshape(tf.range(48, dtype=tf.float32), [2, 4, 6]) / 48.0
    model(patches)
    return model, (patches,)
