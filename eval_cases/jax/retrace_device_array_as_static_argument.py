"""Source: https://github.com/jax-ml/jax/issues/883 ("DeviceArray as static argument: incompatible with jit cache?": a JAX array marked static cannot be hashed for the compilation cache; current JAX rejects it with "Non-hashable static arguments are not supported")."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def select_features(x, feature_idx):  # XLA: retrace
    return x[:, feature_idx]


# --- oracle ---
def ENTRY():
    return select_features, (jnp.ones((4, 5)), jnp.array([1, 2, 3]))
