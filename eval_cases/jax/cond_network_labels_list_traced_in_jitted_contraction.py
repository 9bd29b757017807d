"""Source: https://github.com/google/TensorNetwork/pull/678 ("fix jitting": jitting `ncon` did not work because the network structure, a list of lists of integer labels, was passed to `jax.jit` as an ordinary argument, so every label became a tracer and the Python logic on the labels failed)."""
import jax
import jax.numpy as jnp


def ncon_pair(tensors, network):
    a, b = tensors
    labels_a, labels_b = network
    contracted = [i for i, lab in enumerate(labels_a) if lab > 0]  # XLA: cond
    axes_b = [labels_b.index(labels_a[i]) for i in contracted]
    return jnp.tensordot(a, b, axes=(contracted, axes_b))


@jax.jit
def contract(tensors, network):
    return ncon_pair(tensors, network)


# --- oracle ---
WRAP = False


def ENTRY():
    a = jnp.arange(6, dtype=jnp.float32).reshape(2, 3) / 6.0
    b = jnp.arange(12, dtype=jnp.float32).reshape(3, 4) / 12.0
    return contract, ((a, b), [[-1, 1], [1, -2]])
