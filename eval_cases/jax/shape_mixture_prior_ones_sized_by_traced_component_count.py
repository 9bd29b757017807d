"""Source: https://github.com/jax-ml/jax/issues/18937 (`@jax.jit def test_this(size): return jax.numpy.ones([size])`: without `jax_dynamic_shapes`, the size argument is traced and `jnp.ones` raises a TypeError asking for concrete shape values and pointing at `static_argnums`). Here a Gaussian-mixture log-likelihood builds its uniform prior weights with `jnp.ones` sized by the component count, which is an ordinary argument of the jitted function."""
import jax
import jax.numpy as jnp


@jax.jit
def mixture_log_likelihood(points, means, num_components):
    weights = jnp.ones([num_components]) / num_components  # XLA: shape
    sq_dist = jnp.sum((points[:, None, :] - means[None, :, :]) ** 2, axis=-1)
    log_comp = -0.5 * sq_dist - jnp.log(2.0 * jnp.pi) * points.shape[-1] / 2
    return jnp.sum(jax.nn.logsumexp(log_comp + jnp.log(weights), axis=-1))


# --- oracle ---
def ENTRY():
    points = jnp.cos(jnp.arange(12.0).reshape(6, 2))
    means = jnp.array([[0.0, 0.0], [1.0, -1.0], [-0.5, 0.5]])
    return mixture_log_likelihood, (points, means, 3)
