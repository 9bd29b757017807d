"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as a train step rescales a diverging loss and records it in a metrics dict, both in a Python `if` on the traced loss."""
import jax
import jax.numpy as jnp


@jax.jit
def guarded_loss(w, x, y):
    loss = jnp.mean((x @ w - y) ** 2)
    metrics = {"raw": loss}
    if loss > 1.0:  # XLA: cond
        metrics["diverged"] = 1.0
        loss = loss / 10.0
    else:
        metrics["diverged"] = 0.0
    return loss, metrics


# --- oracle ---
def ENTRY():
    return guarded_loss, (jnp.ones((3,)), jnp.linspace(0.0, 2.0, 12).reshape(4, 3), jnp.zeros((4,)))
