"""Source: https://github.com/google-deepmind/optax/issues/577 ("Optax recompiles when learning rate changes": "Optax isn't treating its optimisers as pytrees. This is introducing spurious recompilation"; `evaluate(optim1, ...)` and `evaluate(optim2, ...)` with `optax.adam(3e-3)` / `optax.adam(3e-4)` as a static argument both print "Compiling!"). Here a hyper-parameter sweep builds an optax-style gradient transformation (a NamedTuple of closures over the learning rate) per value and passes it as the static argument of a jitted update."""
from functools import partial
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class GradientTransformation(NamedTuple):
    init: Callable
    update: Callable


def momentum_sgd(learning_rate, beta=0.9):
    def init_fn(params):
        return jax.tree_util.tree_map(jnp.zeros_like, params)

    def update_fn(grads, state):
        state = jax.tree_util.tree_map(lambda m, g: beta * m + g, state, grads)
        updates = jax.tree_util.tree_map(lambda m: -learning_rate * m, state)
        return updates, state

    return GradientTransformation(init_fn, update_fn)


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@partial(jax.jit, static_argnums=0)
def train_step(optim, params, opt_state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, opt_state = optim.update(grads, opt_state)
    params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
    return params, opt_state, loss_fn(params, x, y)


def run_trial(learning_rate, x, y):
    optim = momentum_sgd(learning_rate)
    params = {"w": jnp.zeros((x.shape[1], 1)), "b": jnp.zeros((1,))}
    opt_state = optim.init(params)
    for _ in range(3):
        params, opt_state, loss = train_step(optim, params, opt_state, x, y)  # XLA: retrace
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
