"""Source: https://github.com/jax-ml/jax/issues/9288 (jax.jit of a lambda built inside the caller is compiled again on every call: the cache is keyed on the function object); here a loss helper jits a fresh lambda that bakes its weight in as a constant."""
import jax
import jax.numpy as jnp


def smoothed_l1(pred, target, beta):
    loss = jax.jit(lambda p, t: jnp.mean(jnp.where(jnp.abs(p - t) < beta, 0.5 * (p - t) ** 2 / beta,  # XLA: retrace
                                                   jnp.abs(p - t) - 0.5 * beta)))
    return loss(pred, target)


# --- oracle ---
WRAP = False


def ENTRY():
    return smoothed_l1, (jnp.array([0.1, 1.5, -2.0]), jnp.array([0.0, 1.0, 0.0]), 1.0)


def ALT_ARGS():
    return [(jnp.array([0.3, 1.1, -1.0]), jnp.array([0.0, 1.0, 0.0]), 1.0)]
