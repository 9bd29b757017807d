"""Source: https://github.com/google-deepmind/optax/issues/1440 (reduce_on_plateau causes a JIT cache miss on the second training step: `avg_value=jnp.asarray(0.0)` is weakly typed in init, while update returns a strongly typed float32)."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class PlateauState(NamedTuple):
    scale: jnp.ndarray
    avg_value: jnp.ndarray
    count: jnp.ndarray


def plateau_init():
    return PlateauState(scale=jnp.asarray(1.0, jnp.float32), avg_value=jnp.asarray(0.0), count=jnp.asarray(0))


@jax.jit
def train_step(params, state, loss):  # XLA: retrace
    avg = (state.avg_value * state.count + loss) / (state.count + 1)
    scale = jnp.where(loss > avg, state.scale * 0.5, state.scale)
    return params * scale, PlateauState(scale, avg.astype(jnp.float32), state.count + 1)


# --- oracle ---
def ENTRY():
    return train_step, (jnp.ones(2), plateau_init(), jnp.float32(0.7))


def ALT_ARGS():
    s = PlateauState(jnp.asarray(1.0, jnp.float32), jnp.asarray(0.7, jnp.float32), jnp.asarray(1))
    return [(jnp.ones(2), s, jnp.float32(0.9))]
