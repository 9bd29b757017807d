"""Source: https://github.com/google/brax/issues/321 (a NumPy call inside an environment's `step` raised TracerArrayConversionError once `env.step` was jitted). Here the reacher reward is computed with `jnp.linalg.norm`, so the jitted step traces."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    qpos: jax.Array
    qvel: jax.Array
    target: jax.Array
    reward: jax.Array


def fingertip(qpos, l1=0.1, l2=0.11):
    x = l1 * jnp.cos(qpos[0]) + l2 * jnp.cos(qpos[0] + qpos[1])
    y = l1 * jnp.sin(qpos[0]) + l2 * jnp.sin(qpos[0] + qpos[1])
    return jnp.stack([x, y])


def step(state, action, dt=0.01):
    qvel = state.qvel + dt * (action - 0.1 * state.qvel)
    qpos = state.qpos + dt * qvel
    tip = fingertip(qpos)
    reward_dist = -jnp.linalg.norm(tip - state.target)
    reward_ctrl = -jnp.sum(action ** 2)
    return State(qpos, qvel, state.target, reward_dist + reward_ctrl)


# --- oracle ---
def ENTRY():
    state = State(jnp.array([0.1, -0.2]), jnp.zeros(2), jnp.array([0.05, 0.12]), jnp.zeros(()))
    return step, (state, jnp.ones(2))
