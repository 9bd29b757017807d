"""Source: https://github.com/pyro-ppl/numpyro/pull/2171 ("fix repeated recompilation in no-progress-bar fori_collect path": `fori_collect(..., progbar=False)` recreated `loop_fn` as a fresh closure on every call and jitted it, and since JAX caches compiled functions by function identity every `MCMC.run()` recompiled the whole sampler; the fix caches `loop_fn` on its static inputs and passes `init_val` as an argument instead of closing over it). This is that fix: the jitted loop is built once per (body, transform, bounds) and reused. Here a random-walk Metropolis sampler collects its samples with `fori_collect`."""
import functools

import jax
import jax.numpy as jnp
from jax import lax


def log_density(x):
    return -0.5 * jnp.sum(x ** 2) - 0.1 * jnp.sum(x ** 4)


def sample_kernel(state):
    x, logp, key = state
    key, prop_key, acc_key = jax.random.split(key, 3)
    proposal = x + 0.5 * jax.random.normal(prop_key, x.shape)
    logp_prop = log_density(proposal)
    accept = jnp.log(jax.random.uniform(acc_key)) < logp_prop - logp
    return jnp.where(accept, proposal, x), jnp.where(accept, logp_prop, logp), key


def take_position(state):
    return state[0]


@functools.lru_cache(maxsize=None)
def _cached_loop_fn(lower, upper, body_fun, transform):
    def loop_fn(init_val, collection):
        def _body(i, vals):
            val, collection = vals
            val = body_fun(val)
            collection = lax.cond(i >= lower, lambda c: c.at[i - lower].set(transform(val)), lambda c: c, collection)
            return val, collection

        return lax.fori_loop(0, upper, _body, (init_val, collection))

    return jax.jit(loop_fn)


def fori_collect(lower, upper, body_fun, init_val, transform):
    collection = jnp.zeros((upper - lower,) + transform(init_val).shape)
    last_val, collection = _cached_loop_fn(lower, upper, body_fun, transform)(init_val, collection)
    return last_val, collection


def mcmc_run(rng_key, init_position, num_warmup=20, num_samples=40):
    state = (init_position, log_density(init_position), rng_key)
    last_state, samples = fori_collect(num_warmup, num_warmup + num_samples, sample_kernel, state, take_position)
    return samples.mean(axis=0), last_state[0]


# --- oracle ---
WRAP = False


def ENTRY():
    return mcmc_run, (jax.random.PRNGKey(0), jnp.zeros(3))


def ALT_ARGS():
    return [(jax.random.PRNGKey(1), jnp.zeros(3)), (jax.random.PRNGKey(2), jnp.ones(3))]
