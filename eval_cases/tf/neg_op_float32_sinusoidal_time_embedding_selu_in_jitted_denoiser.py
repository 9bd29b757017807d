"""Source: https://github.com/tensorflow/tensorflow/issues/62269 ("Different Behavior of tf.raw_ops.Sin+tf.raw_ops.Selu with jit_compile=True" on `bfloat16` inputs). The near miss: the sinusoidal time embedding computed in `float32` (the usual mixed-precision advice for such embeddings) in the same jit-compiled denoising step."""
import tensorflow as tf


class TimeEmbedding(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(dtype="float32", **kwargs)
        self.freqs = tf.exp(tf.linspace(0.0, 4.0, dim))
        self.out = tf.keras.layers.Dense(dim)

    def call(self, t):
        angles = t[:, None] * self.freqs[None, :]
        return self.out(tf.nn.selu(tf.math.sin(angles)))


embed = TimeEmbedding(16)


@tf.function(jit_compile=True)
def denoise_step(noisy, t):
    return noisy + tf.reduce_mean(embed(t), axis=-1, keepdims=True)


# --- oracle ---
WRAP = False


def ENTRY():
    noisy = tf.random.stateless_normal([4, 16], seed=[1, 2])
    t = tf.constant([3.0, 17.0, 250.0, 999.0])
    return denoise_step, (noisy, t)
