"""Source: https://github.com/jax-ml/jax/issues/4473 (the answer: make the horizon and the step size static arguments, so the scan length is computed from Python floats at trace time; each new horizon compiles once)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.lax import scan


def euler_step(f, state, dt):
    return state + dt * f(state)


@partial(jax.jit, static_argnums=(0, 2, 3))
def integrate_euler(f, initial_state, time, dt):
    final, _ = scan(
        lambda s, _: (euler_step(f, s, dt), None),
        initial_state,
        xs=None,
        length=int(np.divide(time, dt)),
    )
    return final


def growth(x):
    return 0.9 * x


def simulate(initial_state, time, dt):
    return integrate_euler(growth, initial_state, time, dt)


# --- oracle ---
WRAP = False


def ENTRY():
    return simulate, (jnp.array([1.0, 2.0]), 0.5, 0.1)


def ALT_ARGS():
    return [(jnp.array([0.5, 1.0]), 0.5, 0.1)]
