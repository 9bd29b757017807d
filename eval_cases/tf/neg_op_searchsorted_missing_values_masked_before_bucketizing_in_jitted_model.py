"""Source: https://github.com/tensorflow/tensorflow/issues/117804 (`tf.searchsorted(side='right')` gives a NaN query a different position under XLA than eager). The fix used here: missing readings (NaN) are replaced by a large sentinel with `tf.where(tf.math.is_nan(...))` before bucketing, so no NaN reaches `tf.searchsorted` and both modes put them in the overflow bucket."""
import numpy as np
import tensorflow as tf


class BucketizedTabularModel(tf.keras.Model):
    def __init__(self, boundaries, num_features):
        super().__init__()
        self.boundaries = tf.constant(boundaries, dtype=tf.float32)
        self.num_buckets = len(boundaries) + 1
        self.embed = tf.keras.layers.Embedding(num_features * self.num_buckets, 4)
        self.offsets = tf.range(num_features) * self.num_buckets
        self.head = tf.keras.layers.Dense(1)
        self.embed.build((None, num_features))
        self.head.build((None, num_features * 4))

    @tf.function(jit_compile=True)
    def call(self, readings):
        batch = tf.shape(readings)[0]
        readings = tf.where(tf.math.is_nan(readings), tf.fill(tf.shape(readings), 1e30), readings)
        grid = tf.broadcast_to(self.boundaries, [batch, tf.shape(self.boundaries)[0]])
        buckets = tf.searchsorted(grid, readings, side="right")
        ids = buckets + self.offsets
        emb = self.embed(ids)
        return self.head(tf.reshape(emb, [batch, -1]))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    model = BucketizedTabularModel([0.5, 1.0, 2.0, 4.0], num_features=3)
    _KEEP.append(model)
    readings = tf.constant([[0.2, np.nan, 3.0], [5.0, 1.5, np.nan]], dtype=tf.float32)
    return model, (readings,)
