"""Source: https://github.com/tensorflow/tensorflow/issues/117804 ("`tf.searchsorted(side='right')` returns wrong position for NaN under XLA": eager puts a NaN query after every boundary, XLA's sum-of-comparisons lowering puts it at index 0). Here a tabular model buckets raw sensor readings, where a missing reading arrives as NaN, with `tf.searchsorted(..., side="right")` inside a jit-compiled `call`, so missing values land in the first bucket instead of the overflow bucket."""
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
        grid = tf.broadcast_to(self.boundaries, [batch, tf.shape(self.boundaries)[0]])
        buckets = tf.searchsorted(grid, readings, side="right")  # XLA: op
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
