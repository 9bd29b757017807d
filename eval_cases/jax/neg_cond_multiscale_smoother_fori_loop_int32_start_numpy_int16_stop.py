"""Source: https://github.com/jax-ml/jax/pull/13494 ("lax.fori_loop: allow scalar limits": the loop bounds must share one integer dtype, except that a Python scalar bound is weakly typed and takes the other bound's dtype). Near miss: the jitted multi-scale smoother starts the loop at the Python integer `1` and stops at the NumPy `int16` pass count from its table, the combination the report asked for; it compiles on jax 0.10.2."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

PASSES = np.array([2, 4, 8], dtype=np.int16)


def smooth_once(i, x):
    return 0.25 * jnp.roll(x, 1) + 0.5 * x + 0.25 * jnp.roll(x, -1)


@partial(jax.jit, static_argnames="level")
def smooth(signal, level):
    stop = PASSES[level]
    return lax.fori_loop(1, stop, smooth_once, signal)


# --- oracle ---
def ENTRY():
    signal = jnp.sin(jnp.linspace(0.0, 12.0, 64)) + 0.1 * jnp.cos(jnp.arange(64) * 3.0)
    return partial(smooth, level=1), (signal,)
