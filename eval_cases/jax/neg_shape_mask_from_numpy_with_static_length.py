"""Source: https://github.com/jax-ml/jax/issues/4471 (the answer in the thread: build the mask from the static length with NumPy, so it is a concrete array at trace time and `x[mask]` has a known size)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=1)
def prefix_energy(x, keep):
    mask = np.arange(x.shape[0]) < keep
    return jnp.sum(x[mask] ** 2)


# --- oracle ---
WRAP = False


def ENTRY():
    return prefix_energy, (jnp.arange(6.0), 4)
