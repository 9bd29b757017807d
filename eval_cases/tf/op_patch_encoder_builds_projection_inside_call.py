"""Source: https://github.com/tensorflow/tensorflow/issues/48878 (a ViT-style `PatchEncoder` layer that creates its `Dense` projection and position `Embedding` inside `call`: a traced call creates new variables each time it runs, "tf.function-decorated function tried to create variables on non-first call", and a jit-compiled model cannot create them at all). Here a patch encoder of that form in a jit-compiled classifier."""
import tensorflow as tf


class PatchEncoder(tf.keras.layers.Layer):
    def __init__(self, num_patches, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.num_patches = num_patches
        self.projection_dim = projection_dim

    def call(self, patches):
        positions = tf.range(self.num_patches)
        projection = tf.keras.layers.Dense(self.projection_dim)  # XLA: op
        position_embedding = tf.keras.layers.Embedding(self.num_patches, self.projection_dim)
        return projection(patches) + position_embedding(positions)


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
    return model, (patches,)
