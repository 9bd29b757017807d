"""Source: https://github.com/jax-ml/jax/issues/5186 (the fix suggested there: write the aperture with jnp.where(r < radius, fillvalue, array), which keeps the shape static and stays differentiable)."""
import jax
import jax.numpy as jnp


@jax.jit
def filled_circle(xarray, yarray, xcenter, ycenter, radius):
    r = jnp.sqrt((xarray - xcenter) ** 2 + (yarray - ycenter) ** 2)
    return jnp.where(r < radius, 1.0, jnp.zeros_like(r))


# --- oracle ---
def ENTRY():
    y, x = jnp.mgrid[-2:3, -2:3].astype(jnp.float32)
    return filled_circle, (x, y, 0.0, 0.0, 1.5)
