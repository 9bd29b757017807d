"""Source: https://github.com/jax-ml/jax/issues/953 (the answer in the thread: the optimizer's functions are closed over, or marked static, instead of being passed as traced arguments; here the jitted episode is built once around the optimizer)."""
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable[[Any], Any]
    update: Callable[[Any, Any], Any]
    get: Callable[[Any], Any]


def sgd(step_size):
    return Optimizer(init=lambda p: p,
                     update=lambda g, s: jax.tree_util.tree_map(lambda a, b: a - step_size * b, s, g),
                     get=lambda s: s)


def critic_loss(params, obs, target):
    return jnp.mean((obs @ params["w"] - target) ** 2)


OPTIMIZER = sgd(1e-2)


@jax.jit
def ddpg_episode(opt_state, obs, target):
    grads = jax.grad(critic_loss)(OPTIMIZER.get(opt_state), obs, target)
    return OPTIMIZER.update(grads, opt_state)


# --- oracle ---


def ENTRY():
    return ddpg_episode, ({"w": jnp.ones((3, 1))}, jnp.arange(6, dtype=jnp.float32).reshape(2, 3) / 6.0, jnp.ones((2, 1)))
