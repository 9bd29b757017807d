"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as an average-pooling kernel sized by an int field of a config dataclass registered as a pytree, so the field is a traced leaf under jax.jit."""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class PoolConfig:
    gain: float
    kernel: int


@jax.jit
def pooled(x, cfg: PoolConfig):
    weights = jnp.full((cfg.kernel,), 1.0 / cfg.kernel)  # XLA: shape
    return jnp.convolve(x, weights, mode="valid") * cfg.gain


# --- oracle ---
def ENTRY():
    return pooled, (jnp.sin(jnp.arange(16.0) * 0.4), PoolConfig(2.0, 3))
