"""Source: https://github.com/jax-ml/jax/issues/23866 (near miss: the same effective-sample-size diagnostic with a relative tolerance on the variance instead of an exact `== 0.0` test, so a rounding difference between the jitted and the eager arithmetic picks the same branch). (Diagnostic of an importance-sampling estimator, equal weights after resampling.)"""
import jax
import jax.numpy as jnp


def effective_size(weights, mu, n_draw=None, rtol=1e-4):
    nsamples = weights.shape[-1]
    if n_draw is None:
        n_draw = nsamples
    s2 = jnp.sum(weights ** 2, axis=-1) / n_draw ** 2
    sig2 = s2 - mu ** 2 / n_draw
    degenerate = jnp.abs(sig2) <= rtol * s2
    return jax.lax.cond(degenerate, lambda _: 0.0, lambda _: mu ** 2 / sig2, operand=None)


def sampler_diagnostics(weights):
    mu = jnp.mean(weights)
    return effective_size(weights, mu)


# --- oracle ---
def ENTRY():
    return sampler_diagnostics, (jnp.ones(5000),)
