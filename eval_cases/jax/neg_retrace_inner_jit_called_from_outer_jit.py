"""Source: https://github.com/jax-ml/jax/issues/7155 ("inner jit functions are re-traced (and re-compiled)"; closed once jit and pjit merged: a jitted helper called inside a jitted function does not recompile the outer function on later calls with the same shapes)."""
import jax
import jax.numpy as jnp


@jax.jit
def inner_fn(state):
    return 2 * state + 1


@jax.jit
def outer_fn(x):
    old_x = x
    for _ in range(4):
        x = inner_fn(x)
    return x + old_x


# --- oracle ---
def ENTRY():
    return outer_fn, (jnp.arange(5, dtype=jnp.uint32),)


def ALT_ARGS():
    return [(jnp.arange(5, 10, dtype=jnp.uint32),)]
