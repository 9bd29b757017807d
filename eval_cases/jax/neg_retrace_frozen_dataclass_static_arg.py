"""Source: https://github.com/jax-ml/jax/issues/3701 (near miss, the fix from the report: a frozen dataclass is hashable and equal configs hit the cache)."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float


@partial(jax.jit, static_argnums=1)
def do_stuff(data, config):
    return data * config.scale


# --- oracle ---
def ENTRY():
    return do_stuff, (jnp.array([1.0, 2.0]), Config(2.0))


def ALT_ARGS():
    return [(jnp.array([1.0, 3.0]), Config(2.0))]
