"""Source: https://github.com/google/TensorNetwork/pull/678 (the fix: the network structure is a hashable tuple of tuples passed as a static argument, so the labels stay Python ints while the tensors are traced)."""
from functools import partial

import jax
import jax.numpy as jnp


def ncon_pair(tensors, network):
    a, b = tensors
    labels_a, labels_b = network
    contracted = [i for i, lab in enumerate(labels_a) if lab > 0]
    axes_b = [labels_b.index(labels_a[i]) for i in contracted]
    return jnp.tensordot(a, b, axes=(contracted, axes_b))


@partial(jax.jit, static_argnums=1)
def contract(tensors, network):
    return ncon_pair(tensors, network)


# --- oracle ---
WRAP = False


def ENTRY():
    a = jnp.arange(6, dtype=jnp.float32).reshape(2, 3) / 6.0
    b = jnp.arange(12, dtype=jnp.float32).reshape(3, 4) / 12.0
    return contract, ((a, b), ((-1, 1), (1, -2)))
