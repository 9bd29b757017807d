"""Source: https://github.com/nissymori/JAX-CORL/pull/59 ("[Improve] Make config hashable": "Made config hashable to be specified as static argnums in jax.jit"; an offline-RL update took its hyperparameter dataclass as a static argument, and a plain `@dataclass` defines `__eq__` and therefore no `__hash__`). Here an IQL-style critic update takes its config dataclass as a static argument."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class IQLConfig:
    discount: float = 0.99
    expectile: float = 0.7
    critic_lr: float = 3e-4


def expectile_loss(diff, expectile):
    weight = jnp.where(diff > 0, expectile, 1.0 - expectile)
    return weight * diff ** 2


@partial(jax.jit, static_argnums=(3,))
def update_value(value_params, q_values, observations, config: IQLConfig):
    v = observations @ value_params
    loss_fn = lambda p: jnp.mean(expectile_loss(q_values - observations @ p, config.expectile))
    loss, g = jax.value_and_grad(loss_fn)(value_params)
    return value_params - config.critic_lr * g, loss, v


def train(value_params, q_values, observations):
    config = IQLConfig()
    return update_value(value_params, q_values, observations, config)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    obs = jnp.linspace(-1.0, 1.0, 20).reshape(5, 4)
    return train, (jnp.ones(4), jnp.arange(5.0), obs)
