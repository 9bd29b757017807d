"""Source: https://github.com/PlasmaControl/DESC/issues/1334 (the mode table is traced inside the jitted objective, so NumPy cannot sort it there; `jnp.lexsort` sorts a traced array). Here the Fourier-Zernike residual orders its spectral modes with `jnp.lexsort`, which traces."""
import jax
import jax.numpy as jnp


@jax.jit
def spectral_residual(coeffs, modes, target):
    order = jnp.lexsort((modes[:, 1], modes[:, 0], modes[:, 2]))
    ordered = coeffs[order]
    weights = 1.0 + jnp.abs(modes[order, 0]) + jnp.abs(modes[order, 1])
    return jnp.sum((ordered / weights - target) ** 2)


# --- oracle ---
def ENTRY():
    modes = jnp.array([[0, 0, 0], [1, -1, 0], [1, 1, 0], [2, 0, 1], [2, -2, 1], [2, 2, 0]])
    coeffs = jnp.array([1.0, 0.5, -0.25, 0.1, 0.3, -0.2])
    target = jnp.array([0.9, 0.2, -0.1, 0.05, 0.1, -0.05])
    return spectral_residual, (coeffs, modes, target)
