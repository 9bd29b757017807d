"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as feature centring reads the mean with `float()` and subtracts it, rebinding the input name."""
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
