"""Source: https://github.com/SharmaLlama/ticktack/issues/19 (the fix: use the traceable `jax.scipy` routine inside the jitted model). Here the jitted radiocarbon box model computes its steady state with `jax.scipy.linalg.solve`."""
import jax
import jax.numpy as jnp
import jax.scipy.linalg


def flux_matrix(fluxes, reservoir):
    out_rates = fluxes / reservoir[:, None]
    return jnp.diag(jnp.sum(out_rates, axis=1)) - out_rates.T


@jax.jit
def equilibrate(fluxes, reservoir, production):
    m = flux_matrix(fluxes, reservoir) + 1e-2 * jnp.eye(reservoir.shape[0])
    steady = jax.scipy.linalg.solve(m, production)
    return steady * reservoir


# --- oracle ---
def ENTRY():
    fluxes = jnp.array([[0.0, 2.0, 1.0], [1.5, 0.0, 0.5], [0.8, 0.3, 0.0]])
    return equilibrate, (fluxes, jnp.array([1.0, 2.0, 4.0]), jnp.array([1.0, 0.0, 0.0]))
