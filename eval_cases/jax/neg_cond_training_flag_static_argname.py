"""Source: https://github.com/google/flax/issues/4085 (fix from the thread: make `training` a static argument of the jitted function, so `not training` is a Python bool at trace time)."""
from functools import partial

import jax
import jax.numpy as jnp


def dropout(x, rate, training, key):
    if not training:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def mlp(params, x, training, key):
    h = jax.nn.relu(x @ params["w1"])
    h = dropout(h, 0.5, training, key)
    return h @ params["w2"]


@partial(jax.jit, static_argnames=("training",))
def mse(params, x, y, training):
    pred = mlp(params, x, training, jax.random.PRNGKey(114))
    return jnp.mean((pred - y) ** 2)


# --- oracle ---
def ENTRY():
    params = {"w1": jnp.ones((3, 4)) * 0.2, "w2": jnp.ones((4, 1)) * 0.3}
    return lambda p, x, y: mse(p, x, y, training=False), (params, jnp.arange(6.0).reshape(2, 3), jnp.ones((2, 1)))
