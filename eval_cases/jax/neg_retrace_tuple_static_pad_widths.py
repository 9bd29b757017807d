"""Source: https://github.com/jax-ml/jax/pull/2379 (near miss, the fix: the pad widths are a tuple of tuples, hashable by value)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def pad_batch(x, pad_width):
    return jnp.pad(x, pad_width)


# --- oracle ---
def ENTRY():
    return pad_batch, (jnp.ones([2, 3]), ((0, 0), (0, 2)))


def ALT_ARGS():
    return [(jnp.ones([2, 3]), ((0, 0), (0, 2)))]
