"""Source: https://github.com/jax-ml/jax/issues/5017 ("Help understanding jit tracing": a fixed-step ODE solver computes `steps = jnp.array(delta_t // max_dt).astype(int)` and scans over `jnp.arange(steps)`; it runs without jit but raises ConcretizationTypeError under `jax.jit`, even though the time span is a Python constant)."""
import jax
import jax.numpy as jnp
from jax.lax import scan


def fixed_step_solve(rhs, t_span, y0, max_dt):
    delta_t = t_span[1] - t_span[0]
    steps = jnp.array(delta_t // max_dt).astype(int)
    h = delta_t / steps

    def step(carry, k):
        t = t_span[0] + h * k
        return carry + rhs(t, carry) * h, None

    yf, _ = scan(step, y0, jnp.arange(steps))  # XLA: shape
    return yf


def decay_loss(coeff):
    def rhs(t, y):
        return coeff * y

    return jnp.sum(fixed_step_solve(rhs, [0.0, 0.5], jnp.array([1.0, 2.0]), 0.1))


# --- oracle ---


def ENTRY():
    return decay_loss, (jnp.float32(-0.7),)
