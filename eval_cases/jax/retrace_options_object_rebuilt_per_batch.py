"""Source: https://github.com/jax-ml/jax/issues/2813 ("Remove object identity equality semantics from static_argnums": a static argument without value equality is compared by identity, so building a new options object for every call compiles the function again each time)."""
from functools import partial

import jax
import jax.numpy as jnp


class ClipOptions:
    def __init__(self, max_norm):
        self.max_norm = max_norm


@partial(jax.jit, static_argnums=1)
def clip_update(grad, opts):
    norm = jnp.linalg.norm(grad)
    return grad * jnp.minimum(1.0, opts.max_norm / (norm + 1e-6))


def clip_all(grads):
    return [clip_update(g, ClipOptions(1.0)) for g in grads]  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return clip_all, (jnp.ones((3, 4)),)


def ALT_ARGS():
    return [(jnp.ones((3, 4)) * 2.0,)]
