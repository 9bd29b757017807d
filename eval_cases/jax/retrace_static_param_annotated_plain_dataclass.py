"""Source: https://github.com/jax-ml/jax/issues/3701 (a config declared with `@dataclasses.dataclass` (eq=True, not frozen) has `__hash__ = None`, so using it as a jax.jit static argument fails with "Non-hashable static arguments are not supported"; the report's fix is `frozen=True`)."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class PoolOptions:
    window: int = 2
    mode: str = "max"


@partial(jax.jit, static_argnames=("opts",))
def pool_sequence(x, opts: PoolOptions):  # XLA: retrace
    windows = x.reshape(x.shape[0] // opts.window, opts.window, x.shape[-1])
    return windows.max(axis=1) if opts.mode == "max" else windows.mean(axis=1)


# --- oracle ---
def ENTRY():
    return pool_sequence, (jnp.arange(16.0).reshape(8, 2), PoolOptions())
