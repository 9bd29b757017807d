"""Source: https://github.com/jax-ml/jax/pull/7952 ("Improve error message when passing a tuple of non-concrete values as an axis argument": an axis argument must be known statically under `jit`). Near miss: the jitted feature standardizer marks `axes` static with `static_argnames`, so the reductions get a concrete tuple of axes."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="axes")
def standardize(features, axes):
    mean = jnp.mean(features, axis=axes, keepdims=True)
    std = jnp.std(features, axis=axes, keepdims=True)
    return (features - mean) / (std + 1e-6)


# --- oracle ---
def ENTRY():
    features = jnp.linspace(-2.0, 3.0, 4 * 6 * 5).reshape(4, 6, 5)
    return partial(standardize, axes=(0, 1)), (features,)
