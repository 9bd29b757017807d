"""Source: https://github.com/patrick-kidger/diffrax/issues/379 (near miss, the fix from the thread: max_steps is a static argument, a Python int at trace time)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="max_steps")
def integrate(y0, dt, max_steps):
    if max_steps == 1:
        return y0 + dt * (-y0)
    return jax.lax.fori_loop(0, max_steps, lambda i, y: y + dt * (-y), y0)


# --- oracle ---
def ENTRY():
    return lambda y0, dt: integrate(y0, dt, max_steps=4), (jnp.array([1.0, 2.0]), jnp.array(0.1))
