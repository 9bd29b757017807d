"""Source: https://github.com/jax-ml/jax/pull/689 ("improve jax.random shape error messages": a random draw whose shape comes from traced jit arguments fails; shapes must be static). Near miss / documented fix: the feature count is a static argument and the input width comes from `x.shape`, so the draw's shape is known at trace time."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n_features",))
def random_fourier_features(x, lengthscale, n_features):
    key = jax.random.PRNGKey(0)
    w = jax.random.normal(key, (n_features, x.shape[-1])) / lengthscale
    b = 2.0 * jnp.pi * jax.random.uniform(jax.random.fold_in(key, 1), (n_features,))
    return jnp.sqrt(2.0 / n_features) * jnp.cos(x @ w.T + b)


# --- oracle ---
WRAP = False


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3)
    return partial(random_fourier_features, n_features=8), (x, jnp.float32(0.7))
