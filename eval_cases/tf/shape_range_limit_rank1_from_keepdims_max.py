"""Source: https://github.com/tensorflow/tensorflow/issues/126189 (`tf.range` with a limit tensor of shape [1] works eagerly but the traced Range rejects it: "Shape must be rank 0 but is rank 1 for 'limit'"; here the limit is a `reduce_max(..., keepdims=True)` of the sequence lengths)."""
import tensorflow as tf


class PositionalMeanPool(tf.keras.layers.Layer):
    def call(self, x, lengths):
        max_len = tf.reduce_max(lengths, keepdims=True)
        positions = tf.range(max_len)  # XLA: shape
        mask = tf.cast(positions[None, :] < lengths[:, None], x.dtype)
        mask = tf.pad(mask, [[0, 0], [0, tf.shape(x)[1] - tf.shape(mask)[1]]])
        return tf.reduce_sum(x * mask[:, :, None], axis=1) / tf.cast(lengths[:, None], x.dtype)


class Encoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(3)
        self.pool = PositionalMeanPool()

    def call(self, x, lengths):
        return self.pool(self.proj(x), lengths)


# --- oracle ---
_KEEP = []


def ENTRY():
    model = Encoder()
    _KEEP.append(model)
    x = tf.reshape(tf.range(2 * 5 * 2, dtype=tf.float32), [2, 5, 2]) / 20.0
    return model, (x, tf.constant([3, 4]))
