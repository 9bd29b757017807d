"""Source: https://github.com/jax-ml/jax/issues/23866 ("Wrong result when Jitting a function": an effective-sample-size helper computes the variance of the importance weights as `sum(w**2) / N**2 - mu**2 / N` and branches with `lax.cond(sig2 == 0.0, ...)`; with equal weights the variance is exactly zero eagerly and the function returns 0, but the jitted function took the other branch and returned -1.85e20, because XLA rewrote the arithmetic and the difference was no longer exactly zero). Here an importance sampler's diagnostic computes the effective sample size of its weights with the same exact-zero test. (Diagnostic of an importance-sampling estimator, equal weights after resampling.)"""
import jax
import jax.numpy as jnp


def effective_size(weights, mu, n_draw=None):
    nsamples = weights.shape[-1]
    if n_draw is None:
        n_draw = nsamples
    s2 = jnp.sum(weights ** 2, axis=-1) / n_draw ** 2
    sig2 = s2 - mu ** 2 / n_draw
    return jax.lax.cond(sig2 == 0.0, lambda _: 0.0, lambda _: mu ** 2 / sig2, operand=None)  # XLA: op


def sampler_diagnostics(weights):
    mu = jnp.mean(weights)
    return effective_size(weights, mu)


# --- oracle ---
def ENTRY():
    return sampler_diagnostics, (jnp.ones(5000),)
