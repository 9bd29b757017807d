"""Source: https://github.com/tensorflow/tensorflow/issues/115731 ("CPU cumsum stays in bfloat16. GPU promotes to float32.": a long `bfloat16` cumulative sum accumulates in `bfloat16` on the CPU kernel and drifts far from the float64 reference, while another backend accumulates in float32). Here a `bfloat16` monotonic-attention pooling layer that takes the cumulative sum of 512 attention weights per sequence, in a jit-compiled forward pass, so the compiled and eager sums are computed by different kernels."""
import tensorflow as tf


class CumulativeAttentionPool(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(dtype="bfloat16", **kwargs)
        self.score = tf.keras.layers.Dense(1, dtype="bfloat16")

    def call(self, frames):
        weights = tf.nn.sigmoid(self.score(frames))[..., 0]
        coverage = tf.math.cumsum(weights, axis=1)  # XLA: op
        return tf.reduce_sum(frames * coverage[..., None], axis=1) / coverage[:, -1:]


pool = CumulativeAttentionPool()


@tf.function(jit_compile=True)
def forward(frames):
    return tf.cast(pool(frames), tf.float32)


# --- oracle ---
WRAP = False


def ENTRY():
    frames = tf.cast(tf.random.stateless_normal([2, 512, 4], seed=[5, 6]), tf.bfloat16)
    return forward, (frames,)
