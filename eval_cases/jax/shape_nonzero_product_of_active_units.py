"""Source: https://github.com/jax-ml/jax/issues/5280 ("Why is jnp.nonzero not jittable?": `a[jnp.nonzero(a)].prod()` inside jit, the result shape depends on the values)."""
import jax
import jax.numpy as jnp


@jax.jit
def active_gain(activations):
    gains = jax.nn.relu(activations)
    return gains[jnp.nonzero(gains)].prod()  # XLA: shape


# --- oracle ---
def ENTRY():
    return active_gain, (jnp.array([0.5, -1.0, 2.0, 0.0, 1.5]),)
