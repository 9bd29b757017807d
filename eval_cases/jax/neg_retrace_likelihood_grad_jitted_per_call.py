"""Source: https://github.com/jax-ml/jax/issues/2515 (the fix: build the jitted gradient once, outside the callback, and pass the data as an argument; originally: "How to accelerate use jit in loop": a Gaussian negative log-likelihood fitted with iminuit, whose gradient callback is `def my_dev_likelihood(pars): return jit(grad(_Likelihood))(pars[0], pars[1], x)`; `grad` returns a new function at every call, so the jitted gradient is traced and compiled for every evaluation). Here the jitted gradient is built once at module level."""
import math

import jax
import jax.numpy as jnp


def neg_log_likelihood(sigma, mu, samples):
    z = (samples - mu) / sigma
    return jnp.sum(0.5 * z ** 2 + jnp.log(sigma * jnp.sqrt(2.0 * math.pi)))


_nll_grad = jax.jit(jax.grad(neg_log_likelihood, argnums=(0, 1)))


def nll_gradient(pars, samples):
    return _nll_grad(pars[0], pars[1], samples)


def descend(pars, samples, steps=3, lr=0.01):
    sigma, mu = pars
    for _ in range(steps):
        g_sigma, g_mu = nll_gradient((sigma, mu), samples)
        sigma, mu = sigma - lr * g_sigma, mu - lr * g_mu
    return sigma, mu


# --- oracle ---
WRAP = False


def ENTRY():
    samples = jnp.linspace(90.0, 110.0, 16)
    return descend, ((jnp.float32(5.0), jnp.float32(100.0)), samples)


def ALT_ARGS():
    return [((jnp.float32(4.5), jnp.float32(98.0)), jnp.linspace(92.0, 108.0, 16))]
