"""Source: https://github.com/waymo-research/waymax/issues/14 (comment: a jitted benchmark `for _ in range(state.remaining_timesteps)` over a simulator state fails with TracerIntegerConversionError "The __index__() method was called on traced array with shape int32[]", because the step count is a field of the traced state pytree). Here a jitted log-replay rollout advances a small driving-scene state with a Python `range` over the state's own remaining-steps counter."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


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
    for _ in range(state.remaining_timesteps):  # XLA: cond
        state = step_by_log(state)
    return state.xy


# --- oracle ---
def ENTRY():
    log_xy = jnp.arange(8 * 3 * 2, dtype=jnp.float32).reshape(8, 3, 2) / 10.0
    state = SceneState(log_xy[0], log_xy, jnp.int32(0), jnp.int32(7))
    return replay, (state,)
