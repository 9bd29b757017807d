"""Source: https://github.com/jax-ml/jax/issues/5609 (a function jitted with `static_argnums` called from inside another jitted function with a value that is traced there: the static argument is a tracer, which cannot be hashed: "Non-hashable static arguments are not supported ... DynamicJaxprTracer")."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def tile_rows(x, reps):
    return jnp.tile(x, (reps, 1))


@jax.jit
def expand_batch(x, reps):
    return tile_rows(x, reps) * 0.5  # XLA: retrace


# --- oracle ---
def ENTRY():
    return expand_batch, (jnp.arange(6.0).reshape(2, 3), 2)
