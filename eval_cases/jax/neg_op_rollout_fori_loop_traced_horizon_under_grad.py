"""Source: https://github.com/jax-ml/jax/issues/2956 ("Re-enabling scan_f mode for fori_loop and helpfulness of error message"; what the error asks for: `lax.fori_loop` with constant bounds, which lowers to a differentiable `scan`). Here the same trajectory-optimisation step takes the horizon as a static argument, so the `fori_loop` bounds are Python ints."""
import functools

import jax
import jax.numpy as jnp


def dynamics(state, u, dt=0.1):
    pos, vel = state
    return jnp.stack([pos + dt * vel, vel + dt * (u - 0.1 * vel)])


def rollout_cost(controls, x0, horizon):
    def body(t, carry):
        state, cost = carry
        u = controls[t]
        state = dynamics(state, u)
        return state, cost + state[0] ** 2 + 0.01 * u ** 2

    final, cost = jax.lax.fori_loop(0, horizon, body, (x0, 0.0))
    return cost + 10.0 * final[1] ** 2


@functools.partial(jax.jit, static_argnames=("horizon",))
def plan_step(controls, x0, horizon, lr=0.1):
    return controls - lr * jax.grad(rollout_cost)(controls, x0, horizon)


# --- oracle ---
def ENTRY():
    return plan_step, (jnp.zeros((8,)), jnp.array([1.0, 0.0]), 8)
