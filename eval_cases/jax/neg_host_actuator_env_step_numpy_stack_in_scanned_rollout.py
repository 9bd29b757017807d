"""Source: https://github.com/google/brax/issues/227 (the environment step stacked traced values with NumPy inside a `scan`; the fix keeps the step in jax.numpy). Here the actuated-arm environment stacks its joint angles with jax.numpy in the step of a jitted `lax.scan` rollout."""
import jax
import jax.numpy as jnp
from jax import lax


def env_step(state, action):
    angles = state["angles"] + 0.05 * action
    velocity = action - 0.1 * state["velocity"]
    obs = jnp.stack([jnp.sin(angles), jnp.cos(angles), velocity])
    reward = -jnp.sum(angles ** 2)
    return {"angles": angles, "velocity": velocity}, obs, reward


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
