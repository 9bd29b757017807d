"""Source: https://github.com/jax-ml/jax/issues/2813 (static arguments are looked up by hash and equality: options built anew for every call hit the cache when they compare by value, as a frozen dataclass does)."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class ClipOptions:
    max_norm: float


@partial(jax.jit, static_argnums=1)
def clip_update(grad, opts):
    norm = jnp.linalg.norm(grad)
    return grad * jnp.minimum(1.0, opts.max_norm / (norm + 1e-6))


def clip_all(grads):
    return [clip_update(g, ClipOptions(1.0)) for g in grads]


# --- oracle ---
WRAP = False


def ENTRY():
    return clip_all, (jnp.ones((3, 4)),)


def ALT_ARGS():
    return [(jnp.ones((3, 4)) * 2.0,)]
