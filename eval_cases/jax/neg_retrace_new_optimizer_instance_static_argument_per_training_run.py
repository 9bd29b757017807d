"""Source: https://github.com/patrick-kidger/equinox/issues/940 ("Avoid retracing on new optimizer instance"; the answer in the thread: build the optimizer once and reuse the same instance, so the static argument hashes the same in every run). Here the same momentum-SGD optimizer is created once at module level and every training run passes that instance to the jitted step."""
import functools
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class GradientTransformation(NamedTuple):
    init: Callable
    update: Callable


def sgd_momentum(lr, momentum=0.9):
    def init(params):
        return jnp.zeros_like(params), jnp.zeros((), jnp.int32)

    def update(grads, state):
        velocity, t = state
        velocity = momentum * velocity + grads
        return -lr * velocity, (velocity, t + 1)

    return GradientTransformation(init, update)


OPTIMIZER = sgd_momentum(5e-2)


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@functools.partial(jax.jit, static_argnums=(0,))
def step(opt, w, opt_state, x, y):
    loss, g = jax.value_and_grad(loss_fn)(w, x, y)
    updates, opt_state = opt.update(g, opt_state)
    return w + updates, opt_state, loss


def train_run(w0, x, y):
    state = OPTIMIZER.init(w0)
    w = w0
    for _ in range(3):
        w, state, loss = step(OPTIMIZER, w, state, x, y)
    return w, loss


# --- oracle ---
WRAP = False


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 30).reshape(10, 3)
    return train_run, (jnp.zeros((3,)), x, x @ jnp.array([0.5, -1.0, 2.0]))


def ALT_ARGS():
    x = jnp.linspace(-1.0, 1.0, 30).reshape(10, 3)
    return [(jnp.ones((3,)), x, x @ jnp.array([0.5, -1.0, 2.0])), (jnp.zeros((3,)), x, x @ jnp.array([1.0, 0.0, -1.0]))]
