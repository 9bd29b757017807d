"""Source: https://github.com/PlasmaControl/DESC/issues/1334 ("Problem encountered while optimizing for Ideal-ballooning modes": inside the jitted `compute_scaled_error`, `np.lexsort((basis.modes[:, 1], basis.modes[:, 0], basis.modes[:, 2]))` receives the basis modes as a traced array and raises TracerArrayConversionError, "The numpy.ndarray conversion method __array__() was called on traced array with shape int64[696]"). Here a Fourier-Zernike transform orders its spectral modes with NumPy's `lexsort` inside the jitted residual, where the mode table is one of the jitted function's arguments."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def spectral_residual(coeffs, modes, target):
    order = np.lexsort((modes[:, 1], modes[:, 0], modes[:, 2]))  # XLA: host
    ordered = coeffs[order]
    weights = 1.0 + jnp.abs(modes[order, 0]) + jnp.abs(modes[order, 1])
    return jnp.sum((ordered / weights - target) ** 2)


# --- oracle ---
def ENTRY():
    modes = jnp.array([[0, 0, 0], [1, -1, 0], [1, 1, 0], [2, 0, 1], [2, -2, 1], [2, 2, 0]])
    coeffs = jnp.array([1.0, 0.5, -0.25, 0.1, 0.3, -0.2])
    target = jnp.array([0.9, 0.2, -0.1, 0.05, 0.1, -0.05])
    return spectral_residual, (coeffs, modes, target)
