"""Source: https://github.com/jax-ml/jax/issues/5233 ("A question about side effect": rebinding a local copy `x_copy = x; x_copy = x_copy ** 2` inside jit is not a side effect; the function stays pure and compiles)."""
import jax
import jax.numpy as jnp


@jax.jit
def energy(x):
    x_copy = x
    x_copy = x_copy ** 2
    return jnp.sum(x_copy) - jnp.sum(x)


# --- oracle ---
def ENTRY():
    return energy, (jnp.array([1.0, -2.0, 3.0]),)


def ALT_ARGS():
    return [(jnp.array([0.5, 0.5, 0.5]),)]
