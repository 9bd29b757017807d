"""Source: https://github.com/jax-ml/jax/issues/514 (`lax.cond` needs both branches to return the same structure: a branch returning a longer tuple than the other fails with a TypeError about mismatched branch outputs)."""
import jax
import jax.numpy as jnp
from jax import lax


def _reset(state):
    h, c = state
    return jnp.zeros_like(h), jnp.zeros_like(c), jnp.float32(1.0)


def _keep(state):
    h, c = state
    return h, c


@jax.jit
def maybe_reset(h, c, done):
    return lax.cond(done, _reset, _keep, (h, c))  # XLA: cond


# --- oracle ---
def ENTRY():
    return maybe_reset, (jnp.ones((2, 3)), jnp.ones((2, 3)), True)
