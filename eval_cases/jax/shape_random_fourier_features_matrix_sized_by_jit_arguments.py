"""Source: https://github.com/jax-ml/jax/pull/689 ("improve jax.random shape error messages": a jitted `feature_map(n, d, ...)` draws `random.normal(key, (d, n))`, so the shape comes from traced arguments and tracing fails). Here a jitted kernel-approximation helper draws its random Fourier feature matrix with a shape built from its own `n_features` and `dim` arguments."""
import jax
import jax.numpy as jnp


@jax.jit
def random_fourier_features(x, n_features, dim, lengthscale):
    key = jax.random.PRNGKey(0)
    w = jax.random.normal(key, (n_features, dim)) / lengthscale  # XLA: shape
    b = 2.0 * jnp.pi * jax.random.uniform(jax.random.fold_in(key, 1), (n_features,))
    return jnp.sqrt(2.0 / n_features) * jnp.cos(x @ w.T + b)


# --- oracle ---
def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3)
    return random_fourier_features, (x, 8, 3, jnp.float32(0.7))
