"""Source: https://github.com/keras-team/keras/issues/19639 (a model's `call` reads a slice position with `pos.item()` and hands it to a helper jitted with `static_argnums`; under the compiled predict step the position is a tracer and `.item()` raises ConcretizationTypeError). Here a cropping head reads the crop length from a position array inside the jitted predict function."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1, 2))
def slice_and_repeat(x, pos, num_repeats):
    return jnp.repeat(x[:, :pos], num_repeats, axis=2)


def init_params():
    return {"w": jnp.linspace(-1.0, 1.0, 3 * 4).reshape(3, 4)}


@jax.jit
def predict(params, x, pos):
    crop = slice_and_repeat(x, pos.item(), 2)  # XLA: host
    return jnp.tanh(crop @ params["w"])


# --- oracle ---
WRAP = False


def ENTRY():
    x = jnp.arange(1 * 5 * 4 * 3, dtype=jnp.float32).reshape(1, 5, 4, 3) / 60.0
    return predict, (init_params(), x, jnp.array([2]))
