"""Source: https://github.com/jax-ml/jax/issues/6233 (the answer in that thread: static arguments must be hashable Python values, so convert the bound with int(...) before the call; the grid then compiles once per bound)."""
import jax
import jax.numpy as jnp


def symmetric_grid(half_width):
    return jnp.arange(-half_width, half_width)


symmetric_grid_jit = jax.jit(symmetric_grid, static_argnums=0)


def grid_for(radius_px):
    return symmetric_grid_jit(int(radius_px) + 1)


# --- oracle ---
WRAP = False


def ENTRY():
    return grid_for, (4,)
