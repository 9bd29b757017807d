"""Source: https://github.com/jax-ml/jax/issues/953 ("Improved error messages ... regarding what can/cannot be jitted": a DDPG episode function takes an `Optimizer` NamedTuple of `init`/`update`/`get` functions as its first argument and is wrapped with `jit`; the functions are not valid JAX types)."""
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


def ddpg_episode(optimizer, opt_state, obs, target):
    grads = jax.grad(critic_loss)(optimizer.get(opt_state), obs, target)
    return optimizer.update(grads, opt_state)


def run(opt_state, obs, target):
    optimizer = sgd(1e-2)
    return jax.jit(ddpg_episode)(optimizer, opt_state, obs, target)  # XLA: op


# --- oracle ---
WRAP = False


def ENTRY():
    return run, ({"w": jnp.ones((3, 1))}, jnp.arange(6, dtype=jnp.float32).reshape(2, 3) / 6.0, jnp.ones((2, 1)))
