"""Source: https://github.com/deep-diver/keras-sd-serving/pull/5 ("XLA compatibility": in the Stable Diffusion serving code "we cannot keep `batch_size` variable in this case because it's passed to `tf.repeat()`" inside the XLA-compiled function; a size taken from a runtime value is not a compile-time constant). Here a latent denoising step that repeats the text context and the unconditional context `batch_size` times, with `batch_size` a tensor argument of the jit-compiled step. Written as the failing case; does not reproduce on TF 2.21 CPU (the jit-compiled function takes the `batch_size` argument as a compile-time constant (specialised on its value), so it compiles), so it is a negative."""
import tensorflow as tf


class TinyUNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv_in = tf.keras.layers.Conv2D(4, 3, padding="same")
        self.context_proj = tf.keras.layers.Dense(4)
        self.conv_out = tf.keras.layers.Conv2D(4, 3, padding="same")

    def call(self, latents, context):
        h = self.conv_in(latents) + self.context_proj(context)[:, None, None, :]
        return self.conv_out(tf.nn.silu(h))


unet = TinyUNet()


@tf.function(jit_compile=True)
def denoise_step(latents, text_context, null_context, batch_size, guidance_scale):
    context = tf.repeat(text_context, batch_size, axis=0)
    uncond = tf.repeat(null_context, batch_size, axis=0)
    eps_text = unet(latents, context)
    eps_null = unet(latents, uncond)
    return latents - 0.1 * (eps_null + guidance_scale * (eps_text - eps_null))


# --- oracle ---
WRAP = False


def ENTRY():
    latents = tf.reshape(tf.range(2 * 4 * 4 * 4, dtype=tf.float32), [2, 4, 4, 4]) / 128.0
    text = tf.constant([[0.3, -0.2, 0.5]])
    null = tf.zeros([1, 3])
    return denoise_step, (latents, text, null, tf.constant(2), tf.constant(7.5))
