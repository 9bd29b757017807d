"""Source: https://github.com/waymo-research/waymax/issues/14 (comment: `range(state.remaining_timesteps)` inside a jitted function raises TracerIntegerConversionError because the count is traced). Near miss / documented fix: the rollout uses `lax.fori_loop` with the traced count as its upper bound, which lowers to a while loop and needs no Python integer."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class SceneState(NamedTuple):
    xy: jnp.ndarray
    log_xy: jnp.ndarray
    timestep: jnp.ndarray
    remaining_timesteps: jnp.ndarray


def step_by_log(state):
    t = state.timestep + 1
    return state._replace(xy=state.log_xy[t], timestep=t, remaining_timesteps=state.remaining_timesteps - 1)


@jax.jit
def replay(state):
    state = lax.fori_loop(0, state.remaining_timesteps, lambda _, s: step_by_log(s), state)
    return state.xy


# --- oracle ---
def ENTRY():
    log_xy = jnp.arange(8 * 3 * 2, dtype=jnp.float32).reshape(8, 3, 2) / 10.0
    state = SceneState(log_xy[0], log_xy, jnp.int32(0), jnp.int32(7))
    return replay, (state,)
