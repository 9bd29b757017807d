"""Source: https://github.com/google-deepmind/optax/issues/577 ("Optax recompiles when learning rate changes": the learning rate is closed over by the update function and embedded into the HLO as a constant, so every trial of a sweep compiles its own step)."""
import jax
import jax.numpy as jnp


def make_update(lr):
    @jax.jit
    def update(params, grads):  # XLA: retrace
        return params - lr * grads
    return update


def run_trial(params, grads, lr):
    return make_update(lr)(params, grads)


# --- oracle ---
WRAP = False


def ENTRY():
    return run_trial, (jnp.ones(4), jnp.full(4, 0.5), 0.1)


def ALT_ARGS():
    return [(jnp.ones(4), jnp.full(4, 0.5), 0.01)]
