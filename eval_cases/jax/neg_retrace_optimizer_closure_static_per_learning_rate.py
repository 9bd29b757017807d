"""Source: https://github.com/google-deepmind/optax/issues/577 ("Optax recompiles when learning rate changes": an optimiser built per learning rate and passed as a static argument recompiled for every value; "it can be worked around with `inject_hyperparams`"). Here the workaround: the learning rate lives in the optimiser state as an array, the transformation is built once at module level, and the sweep reuses one compiled update."""
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class GradientTransformation(NamedTuple):
    init: Callable
    update: Callable


def momentum_sgd_injected(beta=0.9):
    def init_fn(params, learning_rate):
        return {"momentum": jax.tree_util.tree_map(jnp.zeros_like, params),
                "learning_rate": jnp.asarray(learning_rate, jnp.float32)}

    def update_fn(grads, state):
        mom = jax.tree_util.tree_map(lambda m, g: beta * m + g, state["momentum"], grads)
        updates = jax.tree_util.tree_map(lambda m: -state["learning_rate"] * m, mom)
        return updates, {"momentum": mom, "learning_rate": state["learning_rate"]}

    return GradientTransformation(init_fn, update_fn)


OPTIM = momentum_sgd_injected()


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, opt_state = OPTIM.update(grads, opt_state)
    params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
    return params, opt_state, loss_fn(params, x, y)


def run_trial(learning_rate, x, y):
    params = {"w": jnp.zeros((x.shape[1], 1)), "b": jnp.zeros((1,))}
    opt_state = OPTIM.init(params, learning_rate)
    for _ in range(3):
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return loss


# --- oracle ---
WRAP = False


def _data():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    return x, x @ jnp.array([[0.5], [-1.0], [2.0]])


def ENTRY():
    return run_trial, (3e-3, *_data())


def ALT_ARGS():
    return [(3e-4, *_data())]
