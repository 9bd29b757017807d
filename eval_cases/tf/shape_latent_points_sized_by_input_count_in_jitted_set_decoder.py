"""Source: https://github.com/tensorflow/tensorflow/issues/31749 ("tf.keras: Error in BinaryCrossentropy loss when output shape is determined by inputs": a model whose output is `tf.random.normal(shape=(inputs[0, 0],))` works eagerly but fails once compiled). Here a point-cloud set decoder's jit-compiled step reads how many points to generate from its count input and draws that many latent points with `tf.random.normal`, so the shape of the draw is a value of the data."""
import tensorflow as tf

LATENT = 4


class SetDecoder:
    def __init__(self):
        self.to_points = tf.keras.layers.Dense(3)

    @tf.function(jit_compile=True)
    def decode(self, counts, context):
        num_points = counts[0, 0]
        latent = tf.random.normal([num_points, LATENT], seed=3)  # XLA: shape
        points = self.to_points(latent + context)
        return tf.reduce_mean(points, axis=0)


# --- oracle ---
_KEEP = []


def ENTRY():
    decoder = SetDecoder()
    _KEEP.append(decoder)
    return decoder.decode, (tf.constant([[5]], tf.int32), tf.constant([[0.1, 0.2, 0.3, 0.4]]))


COMPARE = False
