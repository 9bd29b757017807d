"""Source: https://github.com/deep-diver/keras-sd-serving/pull/5 (the change the PR made: a fixed `batch_size` known when the function is built, so `tf.repeat` has a static count; the guidance scale stays a runtime tensor). Latent denoising step with a Python-int batch size."""
import tensorflow as tf

BATCH_SIZE = 2


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
def denoise_step(latents, text_context, null_context, guidance_scale):
    context = tf.repeat(text_context, BATCH_SIZE, axis=0)
    uncond = tf.repeat(null_context, BATCH_SIZE, axis=0)
    eps_text = unet(latents, context)
    eps_null = unet(latents, uncond)
    return latents - 0.1 * (eps_null + guidance_scale * (eps_text - eps_null))


# --- oracle ---
WRAP = False


def ENTRY():
    latents = tf.reshape(tf.range(2 * 4 * 4 * 4, dtype=tf.float32), [2, 4, 4, 4]) / 128.0
    text = tf.constant([[0.3, -0.2, 0.5]])
    null = tf.zeros([1, 3])
    return denoise_step, (latents, text, null, tf.constant(7.5))
