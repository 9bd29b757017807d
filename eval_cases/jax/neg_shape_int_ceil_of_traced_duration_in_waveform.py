"""Source: https://github.com/asantini29/phentax/pull/28 (the fix in that pull request: `math.ceil(T / delta_t)` on Python floats, the duration and the sampling step being static configuration; originally: "guard jnp calls and assertions against JIT tracing in initial_processing": calling the waveform model inside `jax.jit` raises `ConcretizationTypeError` because `int(jnp.ceil(T / delta_t))` cannot make the traced duration concrete; the fix computes it with `math.ceil` on Python floats). Here duration and sampling step are static arguments and the grid size is computed with `math.ceil`."""
import math
from functools import partial

import jax
import jax.numpy as jnp


def ringdown(t, amp, freq, tau):
    return amp * jnp.exp(-t / tau) * jnp.cos(2.0 * jnp.pi * freq * t)


@partial(jax.jit, static_argnames=("duration", "delta_t"))
def log_likelihood(theta, data, duration, delta_t):
    n_samples = math.ceil(duration / delta_t)
    t = jnp.arange(n_samples) * delta_t
    h = ringdown(t, theta[0], theta[1], theta[2])
    return -0.5 * jnp.sum((data[:n_samples] - h) ** 2)


# --- oracle ---
def ENTRY():
    data = jnp.cos(jnp.linspace(0.0, 6.0, 32))
    return log_likelihood, (jnp.array([1.0, 2.0, 0.5]), data, 0.25, 1.0 / 64.0)
