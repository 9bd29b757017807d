"""Source: https://github.com/keras-team/keras-hub/pull/2879 (a ragged-preprocessing test fails on the TF GPU job with "No registered 'RaggedTensorToTensor' OpKernel for XLA_GPU_JIT": a `Dense` layer applied to a ragged batch densifies it with `RaggedTensorToTensor`, which has no XLA kernel, and `jit_compile="auto"` had picked XLA). Here a set encoder over variable-length point sets: the ragged batch goes straight into a `Dense` projection inside the jit-compiled forward pass, and the padded result is max-pooled."""
import tensorflow as tf


class SetEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Dense(8, activation="relu")
        self.head = tf.keras.layers.Dense(2)

    def call(self, points):
        dense_points = points.to_tensor()  # XLA: op
        h = self.embed(dense_points)
        return self.head(tf.reduce_max(h, axis=1))


encoder = SetEncoder()


@tf.function(jit_compile=True)
def forward(points):
    return encoder(points)


def point_batch():
    values = tf.reshape(tf.range(18, dtype=tf.float32), [6, 3]) / 10.0
    return tf.RaggedTensor.from_row_lengths(values, [1, 3, 2])


# --- oracle ---
WRAP = False


def ENTRY():
    return forward, (point_batch(),)
