"""Source: https://github.com/jax-ml/jax/issues/4712 (the fix: pass one module-level loss function as the static argument and the batch as traced arguments, so every batch hits the cache)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def sgd_step(loss_fn, params, x, y):
    return params - 0.1 * jax.grad(loss_fn)(params, x, y)


def mse(params, x, y):
    return jnp.mean((x @ params - y) ** 2)


def train_epoch(params, xs, ys):
    for x, y in zip(xs, ys):
        params = sgd_step(mse, params, x, y)
    return params


# --- oracle ---
WRAP = False


def ENTRY():
    xs = [jnp.ones((4, 3)) * i for i in range(2)]
    ys = [jnp.ones(4) * i for i in range(2)]
    return train_epoch, (jnp.zeros(3), xs, ys)


def ALT_ARGS():
    xs = [jnp.ones((4, 3)) * (i + 1) for i in range(2)]
    ys = [jnp.ones(4) for _ in range(2)]
    return [(jnp.zeros(3), xs, ys)]
