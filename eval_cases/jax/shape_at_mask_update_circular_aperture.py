"""Source: https://github.com/jax-ml/jax/issues/5186 (morphine optics under jit: `index_update(array, r < radius, fillvalue)` to draw a filled circular aperture raises "Array boolean indices must be concrete"; here with the current `.at[mask].set` spelling)."""
import jax
import jax.numpy as jnp


@jax.jit
def filled_circle(xarray, yarray, xcenter, ycenter, radius):
    r = jnp.sqrt((xarray - xcenter) ** 2 + (yarray - ycenter) ** 2)
    aperture = jnp.zeros_like(r)
    return aperture.at[r < radius].set(1.0)  # XLA: shape


# --- oracle ---
def ENTRY():
    y, x = jnp.mgrid[-2:3, -2:3].astype(jnp.float32)
    return filled_circle, (x, y, 0.0, 0.0, 1.5)
