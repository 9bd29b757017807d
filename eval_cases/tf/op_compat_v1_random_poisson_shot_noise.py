"""Source: https://github.com/tensorflow/tensorflow/issues/35502 (Poisson noise for GAN training images: tf.random.poisson's RandomPoissonV2 has no GPU kernel and no gradient), here shot-noise augmentation with the TF1 name tf.compat.v1.random_poisson inside an XLA-compiled step, where RandomPoissonV2 has no XLA_CPU_JIT kernel."""
import tensorflow as tf


@tf.function(jit_compile=True)
def add_shot_noise(images, photons=20.0):
    counts = tf.compat.v1.random_poisson(images * photons, [])  # XLA: op
    return counts / photons


# --- oracle ---
COMPARE = False


def ENTRY():
    return add_shot_noise, (tf.reshape(tf.linspace(0.1, 1.0, 2 * 4 * 4), [2, 4, 4, 1]),)
