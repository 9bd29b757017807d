"""Source: https://github.com/jax-ml/jax/issues/3163 (on current JAX the report's own loop, a Python-int counter fed back through `x + i` with only Python ints, keeps the weak type in the output and compiles once)."""
import jax
import jax.numpy as jnp


@jax.jit
def bump(count, step):
    return count + step


def count_steps(n):
    count = 0
    for i in range(n):
        count = bump(count, i)
    return count


# --- oracle ---
def ENTRY():
    return bump, (0, 1)


def ALT_ARGS():
    return [(jnp.asarray(1), 2)]
