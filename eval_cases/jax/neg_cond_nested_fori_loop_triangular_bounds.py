"""Source: https://github.com/jax-ml/jax/issues/10400 (loops.Scope failed for `range(i, n)` with a traced start; near miss with the supported API: a nested lax.fori_loop whose inner lower bound is the outer index lowers to while loops and compiles)."""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def upper_triangle_sum(x):
    n = x.shape[0]

    def outer(i, acc):
        return lax.fori_loop(i, n, lambda j, a: a + x[i, j], acc)

    return lax.fori_loop(0, n, outer, jnp.zeros((), x.dtype))


# --- oracle ---
def ENTRY():
    return upper_triangle_sum, (jnp.arange(9.0).reshape(3, 3),)
