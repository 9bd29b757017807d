"""Source: https://github.com/google/flax/issues/4085 (near miss: a training flag passed traced and used through jnp.where, not in Python `if`, compiles once for True and False alike; row seq.python_bool_alternating of xlacheck/data/jax_cache_key.json: 3 calls, 1 compile)."""
import jax
import jax.numpy as jnp


@jax.jit
def maybe_scale(x, train):
    return jnp.where(train, x * 0.5, x)


def run(x):
    out = []
    for step in range(4):
        out.append(maybe_scale(x, step % 2 == 0))
    return out


# --- oracle ---
WRAP = False


def ENTRY():
    return run, (jnp.ones(3),)


def ALT_ARGS():
    return [(jnp.arange(3.0),)]
