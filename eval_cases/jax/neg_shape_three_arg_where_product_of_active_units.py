"""Source: https://github.com/jax-ml/jax/issues/5280 (the maintainer's rewrite: `jnp.where(a != 0, a, 1).prod()` computes the same product with a static shape and compiles)."""
import jax
import jax.numpy as jnp


@jax.jit
def active_gain(activations):
    gains = jax.nn.relu(activations)
    return jnp.where(gains != 0, gains, 1.0).prod()


# --- oracle ---
def ENTRY():
    return active_gain, (jnp.array([0.5, -1.0, 2.0, 0.0, 1.5]),)
