"""Source: https://github.com/google/brax/issues/321 ("TracerArrayConversionError when jitting env.step": `jit_env_step = jax.jit(env.step)` on the `reacher` environment raised "The numpy.ndarray conversion method __array__() was called on the JAX Tracer object"; jitting `env.reset` first did not help). Here a two-link reacher environment computes its distance reward with NumPy inside `step`, which the training loop jits."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


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
    reward_dist = -np.linalg.norm(tip - state.target)  # XLA: host
    reward_ctrl = -jnp.sum(action ** 2)
    return State(qpos, qvel, state.target, reward_dist + reward_ctrl)


# --- oracle ---
def ENTRY():
    state = State(jnp.array([0.1, -0.2]), jnp.zeros(2), jnp.array([0.05, 0.12]), jnp.zeros(()))
    return step, (state, jnp.ones(2))
