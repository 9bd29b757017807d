"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as a second-order recurrence rolled out for a traced number of steps with a tuple update, `for _ in range(n)`."""
import jax
import jax.numpy as jnp


@jax.jit
def rollout(x, n):
    a, b = x, x * 0.5
    for _ in range(n):  # XLA: cond
        a, b = b, a + 0.1 * b
    return a + b


# --- oracle ---
def ENTRY():
    return rollout, (jnp.linspace(0.0, 1.0, 3), jnp.int32(5))
