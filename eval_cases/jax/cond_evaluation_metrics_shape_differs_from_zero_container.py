"""Source: https://github.com/robfiras/loco-mujoco/issues/87 ("Evaluation Error using MjxSkeletonMuscle": in the GAIL training loop `jax.lax.cond(counter % config.validation_interval == 0, _evaluation_step, mh.get_zero_container)` fails with "cond branches must have equal output types": the evaluation step's `euclidean_distance` is float32[100,100,0,1] while the zero container's is float32[]). Here a jitted imitation-learning update computes validation metrics every few steps with `lax.cond`, the evaluation branch returning per-environment distances and the other branch scalar zeros."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class ValidationSummary(NamedTuple):
    euclidean_distance: jax.Array
    mean_return: jax.Array


def get_zero_container():
    return ValidationSummary(jnp.zeros(()), jnp.zeros(()))


def policy(params, obs):
    return jnp.tanh(obs @ params)


def training_update(params, obs, expert_actions, counter, validation_interval=5):
    def loss_fn(p):
        return jnp.mean((policy(p, obs) - expert_actions) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(params)
    params = params - 0.1 * g

    def _evaluation_step():
        actions = policy(params, obs)
        dist = jnp.linalg.norm(actions - expert_actions, axis=-1)
        return ValidationSummary(dist, -jnp.sum(dist))

    metrics = jax.lax.cond(counter % validation_interval == 0, _evaluation_step, get_zero_container)  # XLA: cond
    return params, loss, metrics


# --- oracle ---
def ENTRY():
    obs = jnp.linspace(-1.0, 1.0, 24).reshape(6, 4)
    return training_update, (jnp.full((4, 2), 0.1), obs, jnp.full((6, 2), 0.3), jnp.int32(5))
