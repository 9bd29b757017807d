"""Source: https://github.com/CMSL-HKUST/jax-am/issues/12 (the fix: build the element data with `jax.numpy`, which traces, instead of NumPy). Here the jitted compliance objective stacks the densities with `jnp.vstack`; NumPy only builds the constant load pattern outside the trace."""
import jax
import jax.numpy as jnp
import numpy as np

LOADS = np.array([1.0, 0.5, 0.0, 0.2, 0.8, 1.0], dtype=np.float32)


def element_stiffness(rho, penal=3.0):
    filtered = 0.5 * (rho + jnp.roll(rho, 1))
    stacked = jnp.vstack([rho, filtered])
    return 1e-3 + stacked.mean(axis=0) ** penal


@jax.jit
def compliance(rho):
    k = element_stiffness(rho)
    displacement = LOADS / k
    return jnp.sum(LOADS * displacement)


# --- oracle ---
def ENTRY():
    return compliance, (jnp.linspace(0.3, 0.9, 6),)
