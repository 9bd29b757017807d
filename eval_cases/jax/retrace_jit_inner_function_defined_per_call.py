"""Source: https://github.com/jax-ml/jax/issues/4572 ("Any way to avoid recompiling of jit'ed sub-functions?": a jitted helper defined inside the function that is called every step is a new function object each time, so it is traced and compiled again on every call)."""
import jax
import jax.numpy as jnp


def simulate(state, rates):
    @jax.jit
    def step(s):  # XLA: retrace
        return s + 0.1 * (rates @ s - s)

    for _ in range(3):
        state = step(state)
    return state


# --- oracle ---
WRAP = False


def ENTRY():
    return simulate, (jnp.ones(3), jnp.eye(3) * 0.5)


def ALT_ARGS():
    return [(jnp.arange(3.0), jnp.eye(3) * 0.5)]
