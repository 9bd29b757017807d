"""Source: https://github.com/jax-ml/jax/issues/25186 ("Value becoming a tracer error": a step count computed from traced arguments cannot drive a Python `range`; the answer was to make the bounds static). Near miss / documented fix: the window bounds are `static_argnames`, so `i_end - i_start` is a Python int at trace time (one compilation per window, which is what the caller wants)."""
from functools import partial

import jax
import jax.numpy as jnp

GRAVITY = 9.81
DRAG = 0.4


def velocity_rhs(v):
    return GRAVITY - DRAG * v * jnp.abs(v)


@partial(jax.jit, static_argnames=("i_start", "i_end"))
def forward_euler(t_grid, v0, i_start, i_end):
    v = v0
    n_steps = i_end - i_start
    for k in range(n_steps):
        dt = t_grid[i_start + k + 1] - t_grid[i_start + k]
        v = v + dt * velocity_rhs(v)
    return v


# --- oracle ---
WRAP = False


def ENTRY():
    t_grid = jnp.linspace(0.0, 2.0, 21)
    return partial(forward_euler, i_start=2, i_end=12), (t_grid, jnp.float32(0.0))
