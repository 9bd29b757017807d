"""Source: https://github.com/google/brax/issues/306 ("brax trying to convert traced array into numpy.ndarray": a MuZero-style agent rolls a brax environment inside `lax.scan` (`step_fn` in muzero.py) and tracing fails with "The numpy.ndarray conversion method __array__() was called on the JAX Tracer object ... while tracing the function step_fn ... for scan"; the maintainers point to the user's own step function). Here a scanned model-based rollout builds its observation with `np.concatenate` of the traced physics state."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class PhysState(NamedTuple):
    pos: jax.Array
    vel: jax.Array


def physics_step(state, action, dt=0.05):
    acc = action - 0.1 * state.vel
    vel = state.vel + dt * acc
    return PhysState(state.pos + dt * vel, vel)


def observe(state):
    return np.concatenate([state.pos, state.vel], axis=-1)  # XLA: host


def unroll(policy_w, state0, num_steps=4):
    def step_fn(state, _):
        obs = observe(state)
        action = jnp.tanh(obs @ policy_w)
        nxt = physics_step(state, action)
        reward = -jnp.sum(nxt.pos ** 2)
        return nxt, reward

    final, rewards = jax.lax.scan(step_fn, state0, None, length=num_steps)
    return final.pos, rewards.sum()


# --- oracle ---
def ENTRY():
    state = PhysState(jnp.array([0.5, -0.2, 0.1]), jnp.zeros(3))
    return unroll, (jnp.full((6, 3), 0.1), state)
