"""Source: https://github.com/jax-ml/jax/issues/4471 (a boolean mask built inside a jitted function from `jnp` ops on a static length stopped working in jax 0.2.0: the mask is traced, so `x[mask]` raises "Array boolean indices must be concrete")."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def prefix_energy(x, keep):
    mask = jnp.arange(x.shape[0]) < keep
    return jnp.sum(x[mask] ** 2)  # XLA: shape


# --- oracle ---
WRAP = False


def ENTRY():
    return prefix_energy, (jnp.arange(6.0), 4)
