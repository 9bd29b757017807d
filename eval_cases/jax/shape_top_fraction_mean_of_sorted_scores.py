"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as the mean of the top fraction of scores, `jnp.sort(scores)[-k:]` with `k` computed from a traced fraction."""
import jax
import jax.numpy as jnp


@jax.jit
def top_fraction_mean(scores, frac):
    k = jnp.ceil(scores.shape[0] * frac).astype(jnp.int32)
    return jnp.sort(scores)[-k:].mean()  # XLA: shape


# --- oracle ---
def ENTRY():
    return top_fraction_mean, (jnp.sin(jnp.arange(10.0)), 0.3)
