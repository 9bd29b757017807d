"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes20 (issue 11, the JAX fixer) with the fixer, as an audio encoder projects the first n valid frames of a padded clip with a weight matrix and mean-pools them over time; n comes from the batch."""
import jax
import jax.numpy as jnp


@jax.jit
def pooled_embedding(params, frames, n_valid):
    valid = frames[:n_valid]  # XLA: shape
    hidden = jnp.tanh(valid @ params["w"])
    return jnp.max(hidden, axis=0) + params["b"]


# --- oracle ---
def ENTRY():
    params = {"w": jnp.linspace(-0.5, 0.5, 12).reshape(4, 3), "b": jnp.arange(3.0)}
    frames = jnp.sin(jnp.arange(8 * 4, dtype=jnp.float32)).reshape(8, 4)
    return pooled_embedding, (params, frames, jnp.array(5))
