"""Source: https://github.com/CMSL-HKUST/jax-am/issues/12 ("Compatibility issue with jaxopt": a topology-optimisation objective handed to a jaxopt solver assembled its element data with `numpy.vstack`; the solver jits the objective, so `np.vstack` called `__array__` on a tracer and raised TracerArrayConversionError). Here a jitted compliance objective stacks the element densities and their filtered copy with `np.vstack` before computing the penalised stiffness."""
import jax
import jax.numpy as jnp
import numpy as np


def element_stiffness(rho, penal=3.0):
    filtered = 0.5 * (rho + jnp.roll(rho, 1))
    stacked = np.vstack([rho, filtered])  # XLA: host
    return 1e-3 + stacked.mean(axis=0) ** penal


@jax.jit
def compliance(rho, loads):
    k = element_stiffness(rho)
    displacement = loads / k
    return jnp.sum(loads * displacement)


# --- oracle ---
def ENTRY():
    return compliance, (jnp.linspace(0.3, 0.9, 6), jnp.array([1.0, 0.5, 0.0, 0.2, 0.8, 1.0]))
