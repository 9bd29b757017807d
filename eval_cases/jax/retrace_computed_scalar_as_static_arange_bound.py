"""Source: https://github.com/jax-ml/jax/issues/6233 ("jit unable to handle DeviceArray inputs": `jit(lambda x: jnp.arange(-x, x), static_argnums=0)` works with a Python int but fails when the bound comes out of a JAX computation as an array)."""
import jax
import jax.numpy as jnp


def symmetric_grid(half_width):
    return jnp.arange(-half_width, half_width)


symmetric_grid_jit = jax.jit(symmetric_grid, static_argnums=0)


def grid_for(radius_px):
    return symmetric_grid_jit(jnp.add(radius_px, 1))  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return grid_for, (4,)
