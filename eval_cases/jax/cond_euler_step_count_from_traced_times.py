"""Source: https://github.com/jax-ml/jax/issues/25186 ("Value becoming a tracer error": a forward-Euler integrator computes its number of steps from traced start/end times and loops over `range(n_steps)`, TracerIntegerConversionError)."""
import jax
import jax.numpy as jnp


@jax.jit
def forward_euler(y0, t0, t1, dt):
    n_steps = (t1 - t0) // dt
    y = y0
    for _ in range(n_steps):  # XLA: cond
        y = y + dt * (-0.5 * y)
    return y


# --- oracle ---
def ENTRY():
    return forward_euler, (jnp.array([1.0, 2.0]), 0, 4, 1)
