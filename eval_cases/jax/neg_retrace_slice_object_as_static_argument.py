"""Source: https://github.com/jax-ml/jax/issues/3708 (the hashable form: the window is passed as a `(start, stop)` tuple, which is hashed by value, and the slice is built inside the jitted loss)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def window_loss(params, window, seq, target):
    crop = seq[:, window[0]:window[1]]
    pred = jnp.tanh(crop @ params["w"])
    return jnp.mean((pred - target) ** 2)


def train(params, seq, target, steps):
    losses = []
    for _ in range(steps):
        losses.append(window_loss(params, (1, 4), seq, target))
    return jnp.stack(losses)


# --- oracle ---
WRAP = False


def ENTRY():
    params = {"w": jnp.linspace(-1.0, 1.0, 6).reshape(3, 2)}
    seq = jnp.arange(2 * 6, dtype=jnp.float32).reshape(2, 6) / 12.0
    return train, (params, seq, jnp.zeros((2, 2)), 2)


def ALT_ARGS():
    params = {"w": jnp.linspace(-1.0, 1.0, 6).reshape(3, 2)}
    seq = jnp.arange(2 * 6, dtype=jnp.float32).reshape(2, 6) / 24.0
    return [(params, seq, jnp.zeros((2, 2)), 2)]
