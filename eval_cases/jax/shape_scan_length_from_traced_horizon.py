"""Source: https://github.com/jax-ml/jax/issues/4473 ("Support for variable length in jitted scans?": an Euler integrator passes `length=np.divide(time, dt).astype(int)` to `lax.scan` inside a function jitted with only the vector field static; `time` and `dt` are traced, so the length cannot be computed)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.lax import scan


def euler_step(f, state, dt):
    return state + dt * f(state)


@partial(jax.jit, static_argnums=(0,))
def integrate_euler(f, initial_state, time, dt):
    final, _ = scan(
        lambda s, _: (euler_step(f, s, dt), None),
        initial_state,
        xs=None,
        length=np.divide(time, dt).astype(int),  # XLA: shape
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
