"""Source: https://github.com/jax-ml/jax/issues/18311 ("``custom_jvp`` of ``while_loop`` failes on reverse mode.": a quadrature integrated with `lax.while_loop` (stepping until the increment was small), with a `custom_jvp` (Leibniz rule) whose tangent integral ran the same kind of while loop over the integrand's tangent; `jax.jacfwd` worked but `jax.grad` raised, because reverse mode must transpose the tangent computation and a `while_loop` cannot be transposed). Here a survival-model likelihood integrates a hazard with such a while-loop quadrature (stepping to the end of the follow-up window), defines its derivative with `custom_jvp`, and trains with `jax.grad` in a jitted step."""
import functools

import jax
import jax.numpy as jnp


def hazard(t, rate):
    return rate * jnp.exp(-rate * t)


@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def integrate(fun, a, b, step, rate):
    def cond(state):
        x, _, _ = state
        return x + step <= b

    def body(state):
        x, total, _ = state
        x = x + step
        inc = fun(x, rate) * step
        return x, total + inc, inc

    first = fun(a, rate) * step
    return jax.lax.while_loop(cond, body, (a, first, first))[1]


def dhazard(t, rate, rate_dot):
    return jax.jvp(lambda r: hazard(t, r), (rate,), (rate_dot,))[1]


def tangent_integral(a, b, step, rate, rate_dot):
    def cond(state):
        x, _ = state
        return x + step <= b

    def body(state):
        x, total = state
        x = x + step
        return x, total + dhazard(x, rate, rate_dot) * step

    return jax.lax.while_loop(cond, body, (a, dhazard(a, rate, rate_dot) * step))[1]  # XLA: op


@integrate.defjvp
def integrate_jvp(fun, primals, tangents):
    a, b, step, rate = primals
    _, _, _, rate_dot = tangents
    return integrate(fun, a, b, step, rate), tangent_integral(a, b, step, rate, rate_dot)


def neg_log_lik(rate, event_times):
    cum = integrate(hazard, 0.0, 3.0, 0.05, rate)
    return -jnp.sum(jnp.log(hazard(event_times, rate))) + cum * event_times.shape[0]


@jax.jit
def fit_step(rate, event_times, lr=0.01):
    return rate - lr * jax.grad(neg_log_lik)(rate, event_times)


# --- oracle ---
def ENTRY():
    return fit_step, (jnp.float32(0.8), jnp.array([0.5, 1.2, 2.0, 0.3], jnp.float32))
