"""Source: https://github.com/google/jaxopt/issues/116 ("Avoid state.aux=None in state returned by initial_state": `init_state` sets the auxiliary output to None and `update` to a value, which triggers a jit recompilation of `update`)."""
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class SolverState(NamedTuple):
    iter_num: Any
    value: Any
    aux: Any


def objective(params):
    residual = params - 1.0
    return jnp.sum(residual ** 2), residual


def init_state(params):
    return SolverState(iter_num=jnp.asarray(0), value=jnp.asarray(jnp.inf, jnp.float32), aux=None)  # XLA: retrace


@jax.jit
def update(params, state):
    (value, aux), grad = jax.value_and_grad(objective, has_aux=True)(params)
    return params - 0.1 * grad, SolverState(iter_num=state.iter_num + 1, value=value, aux=aux)


# --- oracle ---
def ENTRY():
    p = jnp.zeros(3)
    return update, (p, init_state(p))


def ALT_ARGS():
    p = jnp.full(3, 0.2)
    return [(p, SolverState(jnp.asarray(1), jnp.asarray(2.0, jnp.float32), p - 1.0))]
