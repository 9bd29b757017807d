"""Source: https://github.com/scverse/pertpy/issues/454 ("sccoda.run_nuts fails with new jax release": sampling a compositional cell-count model under JAX failed inside `jnp` indexing with "Array slice indices must have static start/stop/step to be used with NumPy indexing syntax", raised from the model's slicing once the value used as a slice bound reached it as a traced array). Here the log-density of a Dirichlet-multinomial compositional model is jit-compiled with the index of the reference cell type as an ordinary argument; the effects are padded with a zero column at that index with `beta[:, :ref]` and `beta[:, ref:]`. (scCODA-style compositional analysis of cell-type counts.)"""
import jax
import jax.numpy as jnp
from jax.scipy.special import gammaln


@jax.jit
def log_density(alpha, beta, counts, covariates, ref):
    zeros = jnp.zeros((beta.shape[0], 1))
    beta_full = jnp.concatenate([beta[:, :ref], zeros, beta[:, ref:]], axis=1)  # XLA: shape
    concentration = jnp.exp(alpha + covariates @ beta_full)
    total = counts.sum(axis=1)
    conc_sum = concentration.sum(axis=1)
    ll = (gammaln(conc_sum) - gammaln(conc_sum + total)
          + jnp.sum(gammaln(concentration + counts) - gammaln(concentration), axis=1))
    prior = -0.5 * jnp.sum(beta ** 2) - 0.5 * jnp.sum(alpha ** 2) / 25.0
    return ll.sum() + prior


# --- oracle ---
def ENTRY():
    counts = jnp.array([[10.0, 20.0, 5.0, 15.0], [12.0, 18.0, 9.0, 11.0], [4.0, 30.0, 6.0, 10.0]])
    covariates = jnp.array([[0.0], [1.0], [1.0]])
    alpha = jnp.array([0.1, 0.5, -0.2, 0.3])
    beta = jnp.array([[0.2, -0.1, 0.4]])
    return log_density, (alpha, beta, counts, covariates, 2)
