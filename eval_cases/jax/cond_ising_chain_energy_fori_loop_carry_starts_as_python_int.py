"""Source: https://github.com/jax-ml/jax/issues/1686 ("bug in shape-checking rules for the case of fori_loop": a Python loop that starts its accumulator at `0` and lets it broadcast to a vector works, but `lax.fori_loop` raises "body_fun output and input must have identical types", because the carry goes in as a scalar int32 and comes out as float32[10]; the fix is to start the carry with the right shape and dtype). Here a jitted Ising-chain energy for a batch of spin configurations starts the per-configuration energy at the Python integer `0`, and the loop body returns a float vector of one energy per configuration."""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def chain_energy(spins):
    n_sites = spins.shape[1]

    def body(i, carry):
        energy, s = carry
        return energy - s[:, i] * s[:, i + 1], s

    energy, _ = lax.fori_loop(0, n_sites - 1, body, (0, spins))  # XLA: cond
    return energy


# --- oracle ---
def ENTRY():
    spins = jnp.where(jnp.arange(40).reshape(4, 10) % 3 == 0, -1.0, 1.0)
    return chain_energy, (spins,)
