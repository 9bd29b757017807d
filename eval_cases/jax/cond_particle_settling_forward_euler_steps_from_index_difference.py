"""Source: https://github.com/jax-ml/jax/issues/25186 ("Value becoming a tracer error": a jitted `forwardEuler` raises TracerIntegerConversionError "The __index__() method was called on traced array with shape int64[]" on a step count obtained by subtracting two of its arguments, `operation a:i64[] = sub b c`). Here a jitted forward-Euler integrator for a settling particle loops `for k in range(i_end - i_start)` over a window of a time grid whose bounds are arguments."""
import jax
import jax.numpy as jnp

GRAVITY = 9.81
DRAG = 0.4


def velocity_rhs(v):
    return GRAVITY - DRAG * v * jnp.abs(v)


@jax.jit
def forward_euler(t_grid, v0, i_start, i_end):
    v = v0
    n_steps = i_end - i_start
    for k in range(n_steps):  # XLA: cond
        dt = t_grid[i_start + k + 1] - t_grid[i_start + k]
        v = v + dt * velocity_rhs(v)
    return v


# --- oracle ---
def ENTRY():
    t_grid = jnp.linspace(0.0, 2.0, 21)
    return forward_euler, (t_grid, jnp.float32(0.0), 2, 12)
