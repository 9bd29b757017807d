"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as a jitted step prints its loss with `loss.item()` in an f-string, as an eager loop would."""
import jax
import jax.numpy as jnp


@jax.jit
def log_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    print(f"loss = {loss.item():.4f}")  # XLA: cond
    return loss


# --- oracle ---
def ENTRY():
    return log_step, (jnp.ones((3,)) * 0.3, jnp.linspace(0.0, 1.0, 12).reshape(4, 3))
