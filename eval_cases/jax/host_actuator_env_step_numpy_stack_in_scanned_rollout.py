"""Source: https://github.com/google/brax/issues/227 (the Environment notebook fails with TracerArrayConversionError raised from `np.stack` inside the environment step, traced by the `scan` of the wrapper: the jumpy shim handed traced values to NumPy). Here a small actuated-arm environment stacks its joint angles with NumPy in a step that a jitted `lax.scan` rollout traces."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def env_step(state, action):
    angles = state["angles"] + 0.05 * action
    velocity = action - 0.1 * state["velocity"]
    obs = np.stack([np.sin(angles), np.cos(angles), velocity])  # XLA: host
    reward = -jnp.sum(angles ** 2)
    return {"angles": angles, "velocity": velocity}, jnp.asarray(obs), reward


@jax.jit
def rollout(state, actions):
    def body(carry, action):
        carry, obs, reward = env_step(carry, action)
        return carry, (obs, reward)

    state, (observations, rewards) = lax.scan(body, state, actions)
    return observations, jnp.sum(rewards)


# --- oracle ---
def ENTRY():
    state = {"angles": jnp.zeros(3), "velocity": jnp.zeros(3)}
    steps = jnp.arange(10, dtype=jnp.float32)[:, None]
    actions = jnp.sin(steps * jnp.pi / 15 + jnp.arange(3) * jnp.pi)
    return rollout, (state, actions)
