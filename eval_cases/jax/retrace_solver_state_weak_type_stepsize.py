"""Source: https://github.com/google/jaxopt/issues/451 ("weak_type inconsistency causes jit recompilation": the solver state from init holds a weakly typed Python-float stepsize while the state returned by update holds a float32 array, so the second update recompiles)."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class GDState(NamedTuple):
    stepsize: jnp.ndarray
    iter_num: jnp.ndarray


def init_state():
    return GDState(stepsize=1.0, iter_num=jnp.asarray(0))


@jax.jit
def update(params, state, grad):  # XLA: retrace
    new_params = params - state.stepsize * grad
    return new_params, GDState(stepsize=state.stepsize * jnp.float32(0.9), iter_num=state.iter_num + 1)


# --- oracle ---
def ENTRY():
    return update, (jnp.ones(3), init_state(), jnp.full(3, 0.1))


def ALT_ARGS():
    return [(jnp.ones(3) * 0.9, GDState(jnp.float32(0.9), jnp.asarray(1)), jnp.full(3, 0.1))]
