"""Source: https://github.com/jax-ml/jax/issues/1686 ("bug in shape-checking rules for the case of fori_loop": the carry of `lax.fori_loop` must have the same type going in and coming out; the documented fix is to start the accumulator as an array of the body's output shape and dtype instead of the Python `0`). Near miss: the jitted Ising-chain energy starts the per-configuration energy as `jnp.zeros` of the batch size in the spins' dtype."""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def chain_energy(spins):
    n_sites = spins.shape[1]

    def body(i, carry):
        energy, s = carry
        return energy - s[:, i] * s[:, i + 1], s

    energy0 = jnp.zeros(spins.shape[0], spins.dtype)
    energy, _ = lax.fori_loop(0, n_sites - 1, body, (energy0, spins))
    return energy


# --- oracle ---
def ENTRY():
    spins = jnp.where(jnp.arange(40).reshape(4, 10) % 3 == 0, -1.0, 1.0)
    return chain_energy, (spins,)
