"""Source: https://github.com/jax-ml/jax/issues/3708 ("Problematic handling of Python slices": a `slice` passed as a static argument was hashed by identity, so two equal slices compiled the function twice; with Python 3.11, where slices are unhashable, jit now refuses the static argument). Here a sequence model crops its window with a slice that the training loop passes as a static argument of the jitted loss."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def window_loss(params, window, seq, target):
    crop = seq[:, window]
    pred = jnp.tanh(crop @ params["w"])
    return jnp.mean((pred - target) ** 2)


def train(params, seq, target, steps):
    losses = []
    for _ in range(steps):
        losses.append(window_loss(params, slice(1, 4), seq, target))  # XLA: retrace
    return jnp.stack(losses)


# --- oracle ---
WRAP = False


def ENTRY():
    params = {"w": jnp.linspace(-1.0, 1.0, 6).reshape(3, 2)}
    seq = jnp.arange(2 * 6, dtype=jnp.float32).reshape(2, 6) / 12.0
    return train, (params, seq, jnp.zeros((2, 2)), 2)
