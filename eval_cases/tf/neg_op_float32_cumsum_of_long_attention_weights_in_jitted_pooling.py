"""Source: https://github.com/tensorflow/tensorflow/issues/115731 ("CPU cumsum stays in bfloat16. GPU promotes to float32.": a long `bfloat16` cumulative sum drifts). The usual mixed-precision fix: the cumulative sum of the attention weights is taken in `float32`, then cast back, in the same jit-compiled pooling layer."""
import tensorflow as tf


class CumulativeAttentionPool(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(dtype="float32", **kwargs)
        self.score = tf.keras.layers.Dense(1)

    def call(self, frames):
        weights = tf.nn.sigmoid(self.score(frames))[..., 0]
        coverage = tf.math.cumsum(weights, axis=1)
        return tf.reduce_sum(frames * coverage[..., None], axis=1) / coverage[:, -1:]


pool = CumulativeAttentionPool()


@tf.function(jit_compile=True)
def forward(frames):
    return pool(frames)


# --- oracle ---
WRAP = False


def ENTRY():
    frames = tf.random.stateless_normal([2, 512, 4], seed=[5, 6])
    return forward, (frames,)
