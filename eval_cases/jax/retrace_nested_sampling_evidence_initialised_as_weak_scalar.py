"""Source: https://github.com/handley-lab/blackjax/pull/60 ("Double traced jit": the nested-sampling integrator started `logX`/`logZ` as weakly typed scalars, and after the first step they came back as strongly typed arrays of the log-likelihood's dtype, so `step_fn` compiled twice on first use; the fix initialises them with the log-likelihood dtype). Here a nested sampler keeps its evidence accumulators in a NamedTuple state and advances it through a jitted step, one call per iteration."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class NSState(NamedTuple):
    particles: jnp.ndarray
    loglikelihood: jnp.ndarray
    logX: jnp.ndarray
    logZ: jnp.ndarray


def loglikelihood_fn(x):
    return -0.5 * jnp.sum(((x - 0.3) / 0.1) ** 2, axis=-1)


def init(particles):
    loglik = loglikelihood_fn(particles)
    return NSState(particles, loglik, logX=jnp.array(0.0), logZ=jnp.array(-jnp.inf))  # XLA: retrace


@jax.jit
def step_fn(state, rng_key):
    n_live = state.particles.shape[0]
    worst = jnp.argmin(state.loglikelihood)
    dead_loglik = state.loglikelihood[worst]
    delta_logX = -1.0 / n_live
    log_weight = state.logX + jnp.log1p(-jnp.exp(delta_logX))
    logZ = jnp.logaddexp(state.logZ, dead_loglik + log_weight)
    proposal = jax.random.uniform(rng_key, state.particles.shape[1:])
    new_loglik = loglikelihood_fn(proposal)
    accept = new_loglik > dead_loglik
    particle = jnp.where(accept, proposal, state.particles[jnp.argmax(state.loglikelihood)])
    particles = state.particles.at[worst].set(particle)
    loglik = state.loglikelihood.at[worst].set(jnp.maximum(new_loglik, dead_loglik))
    return NSState(particles, loglik, state.logX + delta_logX, logZ)


class NestedSampler:
    def __init__(self, particles):
        self.state = init(particles)

    def iterate(self, rng_key):
        self.state = step_fn(self.state, rng_key)
        return self.state.logZ


# --- oracle ---
WRAP = False


def ENTRY():
    particles = jax.random.uniform(jax.random.PRNGKey(0), (16, 2))
    return NestedSampler(particles).iterate, (jax.random.PRNGKey(1),)


def ALT_ARGS():
    return [(jax.random.PRNGKey(2),), (jax.random.PRNGKey(3),)]
