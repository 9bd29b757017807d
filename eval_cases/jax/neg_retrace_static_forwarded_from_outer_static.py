"""Source: https://github.com/jax-ml/jax/issues/5609 (the fix suggested in the thread: mark the argument static in the outer jitted function too, so the inner function receives a Python value it can hash)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def tile_rows(x, reps):
    return jnp.tile(x, (reps, 1))


@partial(jax.jit, static_argnums=1)
def expand_batch(x, reps):
    return tile_rows(x, reps) * 0.5


# --- oracle ---
def ENTRY():
    return expand_batch, (jnp.arange(6.0).reshape(2, 3), 2)


def ALT_ARGS():
    return [(jnp.ones((2, 3)), 2)]
