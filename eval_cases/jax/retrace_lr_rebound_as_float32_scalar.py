"""Source: https://github.com/google/jaxopt/issues/451 ("weak_type inconsistency causes jit recompilation": a step size that is a Python float on the first call and a strongly typed float32 afterwards changes the abstract signature of the jitted update)."""
import jax
import jax.numpy as jnp


@jax.jit
def update(params, grads, lr):
    return params - lr * grads


def train(params, grads_seq):
    lr = 0.1  # XLA: retrace
    for grads in grads_seq:
        params = update(params, grads, lr)
        lr = jnp.float32(lr * 0.95)
    return params


# --- oracle ---
def ENTRY():
    return update, (jnp.ones(3), jnp.full(3, 0.5), 0.1)


def ALT_ARGS():
    return [(jnp.ones(3), jnp.full(3, 0.5), jnp.float32(0.095))]
