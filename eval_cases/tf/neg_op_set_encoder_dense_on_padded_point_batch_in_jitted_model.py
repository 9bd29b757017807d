"""Source: https://github.com/keras-team/keras-hub/pull/2879 (a `Dense` layer on a ragged batch lowers to `RaggedTensorToTensor`, which has no XLA kernel, so the jit-compiled step fails). The fix the thread points to: the ragged point sets are padded in the input pipeline, outside the compiled function, and the model takes the dense batch with a mask for the max-pool."""
import tensorflow as tf


class SetEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Dense(8, activation="relu")
        self.head = tf.keras.layers.Dense(2)

    def call(self, points, mask):
        h = self.embed(points)
        h = tf.where(mask[:, :, None], h, tf.fill(tf.shape(h), -1e9))
        return self.head(tf.reduce_max(h, axis=1))


encoder = SetEncoder()


@tf.function(jit_compile=True)
def forward(points, mask):
    return encoder(points, mask)


def point_batch():
    values = tf.reshape(tf.range(18, dtype=tf.float32), [6, 3]) / 10.0
    ragged = tf.RaggedTensor.from_row_lengths(values, [1, 3, 2])
    return ragged.to_tensor(shape=[3, 4, 3]), tf.sequence_mask(ragged.row_lengths(), 4)


# --- oracle ---
WRAP = False


def ENTRY():
    return forward, point_batch()
