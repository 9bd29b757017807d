"""Source: https://github.com/jax-ml/jax/issues/2813 (a static argument that is not equal by value misses the cache on every call; here a `functools.partial` activation built inside the per-batch forward pass: partial objects compare by identity)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("activation",))
def dense(x, w, activation):
    return activation(x @ w)


def leaky(x, slope):
    return jnp.where(x > 0, x, slope * x)


def forward(x, w):
    return dense(x, w, activation=partial(leaky, slope=0.1))  # XLA: retrace


def predict_all(batches, w):
    return [forward(x, w) for x in batches]


# --- oracle ---
WRAP = False


def ENTRY():
    return forward, (jnp.ones((2, 3)), jnp.ones((3, 4)))


def ALT_ARGS():
    return [(jnp.ones((2, 3)) * 2.0, jnp.ones((3, 4)))]
