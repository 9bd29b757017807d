"""Source: https://github.com/PlasmaControl/DESC/issues/625 (QuasisymmetryBoozer objective raises NonConcreteBooleanIndexError inside the jitted optimizer: the objective keeps the non-symmetric Boozer modes with a boolean mask computed from traced data)."""
import jax
import jax.numpy as jnp


@jax.jit
def quasisymmetry_error(b_mn, m, n, helicity_n):
    symmetric = (n - helicity_n * m) == 0
    return jnp.sqrt(jnp.sum(b_mn[~symmetric] ** 2))  # XLA: shape


# --- oracle ---
def ENTRY():
    m = jnp.array([0, 1, 1, 2, 2])
    n = jnp.array([0, 0, 1, 0, 2])
    return quasisymmetry_error, (jnp.array([1.0, 0.1, 0.05, 0.02, 0.01]), m, n, 1)
