"""Source: https://github.com/tensorflow/tensorflow/issues/31749 ("tf.keras: Error in BinaryCrossentropy loss when output shape is determined by inputs": `tf.random.normal(shape=(inputs[0, 0],))` fails once the model is compiled). Near miss: the point-cloud set decoder's jit-compiled step always draws `MAX_POINTS` latent points and masks the ones beyond the requested count with `tf.sequence_mask`, so the draw has a static shape."""
import tensorflow as tf

LATENT = 4
MAX_POINTS = 8


class SetDecoder:
    def __init__(self):
        self.to_points = tf.keras.layers.Dense(3)

    @tf.function(jit_compile=True)
    def decode(self, counts, context):
        num_points = counts[0, 0]
        latent = tf.random.normal([MAX_POINTS, LATENT], seed=3)
        mask = tf.cast(tf.sequence_mask(num_points, MAX_POINTS), tf.float32)[:, None]
        points = self.to_points(latent + context) * mask
        return tf.reduce_sum(points, axis=0) / tf.cast(num_points, tf.float32)


# --- oracle ---
_KEEP = []


def ENTRY():
    decoder = SetDecoder()
    _KEEP.append(decoder)
    return decoder.decode, (tf.constant([[5]], tf.int32), tf.constant([[0.1, 0.2, 0.3, 0.4]]))


COMPARE = False
