"""Source: https://github.com/tensorflow/tensorflow/issues/62269 ("Different Behavior of tf.raw_ops.Sin+tf.raw_ops.Selu with jit_compile=True": on `bfloat16` inputs the compiled `Sin` followed by `Selu` differs from eager execution). Here the sinusoidal time embedding of a diffusion denoiser, computed in `bfloat16` and passed through a SELU, in a jit-compiled denoising step."""
import tensorflow as tf


class TimeEmbedding(tf.keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(dtype="bfloat16", **kwargs)
        self.freqs = tf.cast(tf.exp(tf.linspace(0.0, 4.0, dim)), tf.bfloat16)
        self.out = tf.keras.layers.Dense(dim, dtype="bfloat16")

    def call(self, t):
        angles = t[:, None] * self.freqs[None, :]
        return self.out(tf.nn.selu(tf.math.sin(angles)))  # XLA: op


embed = TimeEmbedding(16)


@tf.function(jit_compile=True)
def denoise_step(noisy, t):
    return tf.cast(noisy, tf.float32) + tf.cast(tf.reduce_mean(embed(t), axis=-1, keepdims=True), tf.float32)


# --- oracle ---
WRAP = False


def ENTRY():
    noisy = tf.cast(tf.random.stateless_normal([4, 16], seed=[1, 2]), tf.bfloat16)
    t = tf.cast(tf.constant([3.0, 17.0, 250.0, 999.0]), tf.bfloat16)
    return denoise_step, (noisy, t)
