"""Source: https://github.com/jax-ml/jax/issues/4274 (near miss: a learning rate that stays a Python float is a weakly typed traced scalar, so decaying it every step compiles once; row seq.python_float_new_each_call of xlacheck/data/jax_cache_key.json: 3 values, 1 compile)."""
import jax
import jax.numpy as jnp


@jax.jit
def apply_update(w, g, lr):
    return w - lr * g


def train(w, grads):
    lr = 0.1
    for g in grads:
        w = apply_update(w, g, lr)
        lr = lr * 0.5
    return w


# --- oracle ---
WRAP = False


def ENTRY():
    return train, (jnp.ones(3), [jnp.ones(3), jnp.ones(3) * 2])


def ALT_ARGS():
    return [(jnp.zeros(3), [jnp.ones(3), jnp.ones(3)])]
