"""Source: https://github.com/jax-ml/jax/issues/4572 (fix: define the jitted sub-function once at module level and pass what it closed over as arguments; later calls reuse the compiled step)."""
import jax
import jax.numpy as jnp


@jax.jit
def step(s, rates):
    return s + 0.1 * (rates @ s - s)


def simulate(state, rates):
    for _ in range(3):
        state = step(state, rates)
    return state


# --- oracle ---
WRAP = False


def ENTRY():
    return simulate, (jnp.ones(3), jnp.eye(3) * 0.5)


def ALT_ARGS():
    return [(jnp.arange(3.0), jnp.eye(3) * 0.5)]
