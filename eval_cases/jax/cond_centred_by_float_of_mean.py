"""Written for fixes19 (issue 11, the JAX fixer): feature centring reads the mean with `float()` and subtracts it, rebinding the input name."""
import jax
import jax.numpy as jnp


@jax.jit
def centre(features):
    mean = float(jnp.mean(features))  # XLA: cond
    features = features - mean
    return features / (jnp.std(features) + 1e-6)


# --- oracle ---
def ENTRY():
    return centre, (jnp.linspace(-2.0, 5.0, 9),)
