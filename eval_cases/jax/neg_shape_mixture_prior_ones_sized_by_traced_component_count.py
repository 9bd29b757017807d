"""Source: https://github.com/jax-ml/jax/issues/18937 (the error's own advice: the size must be static; reading it from an array shape, which is static under `jax.jit`, needs no extra argument). Here the component count comes from `means.shape[0]`."""
import jax
import jax.numpy as jnp


@jax.jit
def mixture_log_likelihood(points, means):
    num_components = means.shape[0]
    weights = jnp.ones([num_components]) / num_components
    sq_dist = jnp.sum((points[:, None, :] - means[None, :, :]) ** 2, axis=-1)
    log_comp = -0.5 * sq_dist - jnp.log(2.0 * jnp.pi) * points.shape[-1] / 2
    return jnp.sum(jax.nn.logsumexp(log_comp + jnp.log(weights), axis=-1))


# --- oracle ---
def ENTRY():
    points = jnp.cos(jnp.arange(12.0).reshape(6, 2))
    means = jnp.array([[0.0, 0.0], [1.0, -1.0], [-0.5, 0.5]])
    return mixture_log_likelihood, (points, means)
