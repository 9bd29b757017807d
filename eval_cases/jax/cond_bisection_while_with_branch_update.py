"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as bisection for a root under jax.jit, a Python `while` on the traced interval width whose body picks the half with a Python `if`."""
import jax
import jax.numpy as jnp


@jax.jit
def sqrt2_bisect(lo, hi):
    mid = (lo + hi) / 2.0
    while hi - lo > 1e-3:  # XLA: cond
        mid = (lo + hi) / 2.0
        if mid * mid > 2.0:
            hi = mid
        else:
            lo = mid
    return mid


# --- oracle ---
def ENTRY():
    return sqrt2_bisect, (jnp.float32(0.0), jnp.float32(2.0))
