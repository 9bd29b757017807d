"""Source: https://github.com/lanl/scico/issues/535 (the noise must come from a random source that accepts a traced seed: `jax.random.PRNGKey(seed)` does, NumPy's generators do not). Here the jitted function that generates blurred/noisy training pairs draws its noise with `jax.random.normal` from a key made of the traced seed."""
import jax
import jax.numpy as jnp


def gaussian_kernel(size=5, sigma=1.0):
    ax = jnp.arange(size) - size // 2
    k = jnp.exp(-(ax[:, None] ** 2 + ax[None, :] ** 2) / (2 * sigma ** 2))
    return k / jnp.sum(k)


@jax.jit
def make_training_pair(image, seed, noise_level=0.05):
    blurred = jax.scipy.signal.convolve2d(image, gaussian_kernel(), mode="same")
    key = jax.random.PRNGKey(seed)
    noise = jax.random.normal(key, image.shape)
    return blurred + noise_level * noise, image


# --- oracle ---
COMPARE = False


def ENTRY():
    image = jnp.outer(jnp.sin(jnp.linspace(0.0, 3.0, 16)), jnp.cos(jnp.linspace(0.0, 2.0, 16)))
    return make_training_pair, (image, 7)
