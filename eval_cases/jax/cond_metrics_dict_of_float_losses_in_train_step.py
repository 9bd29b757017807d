"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as a jitted train step returns its metrics as Python floats, `float(loss)` in a dict, the way eager training loops log them."""
import jax
import jax.numpy as jnp


@jax.jit
def train_metrics(params, x, y):
    logits = x @ params
    loss = jnp.mean((logits - y) ** 2)
    return {"loss": float(loss), "scale": float(jnp.max(jnp.abs(logits)))}  # XLA: cond


# --- oracle ---
def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    return train_metrics, (jnp.ones((3, 2)) * 0.5, x, jnp.zeros((4, 2)))
