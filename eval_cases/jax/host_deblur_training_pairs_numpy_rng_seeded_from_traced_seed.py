"""Source: https://github.com/lanl/scico/issues/535 ("Test failure in `scico.jax` with latest `jax` version 0.4.29": `test_blur_data_generation` failed inside NumPy's Mersenne Twister seeding (`_mt19937.pyx`), where `__index__` was called on a JAX tracer: a NumPy random generator was seeded with a value that had become a tracer under a JAX transformation). Here a jitted function that generates blurred/noisy training pairs for a deblurring network seeds a NumPy generator with its traced `seed` argument to draw the noise."""
import jax
import jax.numpy as jnp
import numpy as np


def gaussian_kernel(size=5, sigma=1.0):
    ax = jnp.arange(size) - size // 2
    k = jnp.exp(-(ax[:, None] ** 2 + ax[None, :] ** 2) / (2 * sigma ** 2))
    return k / jnp.sum(k)


@jax.jit
def make_training_pair(image, seed, noise_level=0.05):
    blurred = jax.scipy.signal.convolve2d(image, gaussian_kernel(), mode="same")
    rng = np.random.RandomState(seed)  # XLA: host
    noise = rng.normal(size=image.shape).astype(np.float32)
    return blurred + noise_level * noise, image


# --- oracle ---
COMPARE = False


def ENTRY():
    image = jnp.outer(jnp.sin(jnp.linspace(0.0, 3.0, 16)), jnp.cos(jnp.linspace(0.0, 2.0, 16)))
    return make_training_pair, (image, 7)
