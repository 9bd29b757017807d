"""Source: https://github.com/jax-ml/jax/pull/25800 (near miss: every lax.switch branch returns the same shape (the identity branch keeps its dims via keepdims/broadcast), so the switch traces and compiles)."""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def pool(x, mode):
    return lax.switch(mode, [lambda v: jnp.broadcast_to(jnp.mean(v, axis=0, keepdims=True), v.shape),
                             lambda v: v], x)


# --- oracle ---
def ENTRY():
    return pool, (jnp.arange(6.0).reshape(3, 2), 0)
