"""Source: https://github.com/scverse/pertpy/issues/454 ("sccoda.run_nuts fails with new jax release": "Array slice indices must have static start/stop/step" once a slice bound reached the model's indexing as a traced array). The fix used here: the reference cell type is a static argument of the jitted log-density (`static_argnames="ref"`), so the slice bounds are Python ints when the function is traced. (scCODA-style compositional analysis of cell-type counts.)"""
from functools import partial

import jax
import jax.numpy as jnp
from jax.scipy.special import gammaln


@partial(jax.jit, static_argnames="ref")
def log_density(alpha, beta, counts, covariates, ref):
    zeros = jnp.zeros((beta.shape[0], 1))
    beta_full = jnp.concatenate([beta[:, :ref], zeros, beta[:, ref:]], axis=1)
    concentration = jnp.exp(alpha + covariates @ beta_full)
    total = counts.sum(axis=1)
    conc_sum = concentration.sum(axis=1)
    ll = (gammaln(conc_sum) - gammaln(conc_sum + total)
          + jnp.sum(gammaln(concentration + counts) - gammaln(concentration), axis=1))
    prior = -0.5 * jnp.sum(beta ** 2) - 0.5 * jnp.sum(alpha ** 2) / 25.0
    return ll.sum() + prior


# --- oracle ---
WRAP = False


def ENTRY():
    counts = jnp.array([[10.0, 20.0, 5.0, 15.0], [12.0, 18.0, 9.0, 11.0], [4.0, 30.0, 6.0, 10.0]])
    covariates = jnp.array([[0.0], [1.0], [1.0]])
    alpha = jnp.array([0.1, 0.5, -0.2, 0.3])
    beta = jnp.array([[0.2, -0.1, 0.4]])
    return lambda a, b, c, x: log_density(a, b, c, x, ref=2), (alpha, beta, counts, covariates)
