"""Source: https://github.com/jax-ml/jax/issues/1348 ("Use of global keyword": a jitted function increments a global counter; the Python side effect runs only while tracing, so every compiled call returns the value from the first trace)."""
import jax
import jax.numpy as jnp

step = 0


@jax.jit
def warmup_scale(x):
    global step
    step = step + 1  # XLA: host
    return x * jnp.minimum(step / 3.0, 1.0)


# --- oracle ---
def ENTRY():
    return warmup_scale, (jnp.ones(2),)


def ALT_ARGS():
    return [(jnp.ones(2),), (jnp.ones(2),)]
