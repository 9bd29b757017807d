"""Source: https://github.com/google-deepmind/optax/pull/1175 ("minor change so backtracking init and update return the same state types": when `update` is jitted, the first call sees the state from `init` and the second the state from `update`, which differ in `weak_type` on some scalar values such as the stored objective value, so the step recompiles; the fix sets the dtype explicitly at initialisation; from optax#1171). This is that fix. Here a gradient-descent solver with an Armijo backtracking line search keeps its line-search state in a NamedTuple and runs one jitted iteration per call."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class BacktrackingState(NamedTuple):
    learning_rate: jnp.ndarray
    value: jnp.ndarray
    num_linesearch_steps: jnp.ndarray


def objective(params, features, targets):
    return jnp.mean((features @ params - targets) ** 2) + 1e-3 * jnp.sum(params ** 2)


def init_linesearch(params):
    return BacktrackingState(learning_rate=jnp.ones((), params.dtype),
                             value=jnp.full((), jnp.inf, params.dtype),
                             num_linesearch_steps=jnp.zeros((), jnp.int32))


@jax.jit
def solver_step(params, ls_state, features, targets):
    value, grad = jax.value_and_grad(objective)(params, features, targets)
    slope = -jnp.sum(grad ** 2)

    def cond_fn(carry):
        lr, k = carry
        candidate = objective(params - lr * grad, features, targets)
        return (candidate > value + 1e-4 * lr * slope) & (k < 20)

    def body_fn(carry):
        lr, k = carry
        return lr * 0.5, k + 1

    lr, k = lax.while_loop(cond_fn, body_fn, (ls_state.learning_rate * 2.0, jnp.zeros((), jnp.int32)))
    return params - lr * grad, BacktrackingState(lr, value, k)


class Solver:
    def __init__(self, params):
        self.params = params
        self.ls_state = init_linesearch(params)

    def iterate(self, features, targets):
        self.params, self.ls_state = solver_step(self.params, self.ls_state, features, targets)
        return self.ls_state.value


# --- oracle ---
WRAP = False


def _data(shift):
    features = jnp.linspace(-1.0, 1.0, 20 * 3).reshape(20, 3)
    return features, features @ jnp.array([0.5, -1.0, 2.0]) + shift


def ENTRY():
    return Solver(jnp.zeros(3)).iterate, _data(0.0)


def ALT_ARGS():
    return [_data(0.0), _data(0.1)]
