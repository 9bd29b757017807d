"""Source: https://github.com/jax-ml/jax/issues/7545 ("grads works but check_grads throws Tracer Array Conversion Error": the source positions `radec` and fluxes `stokes` were NumPy arrays, and the visibility model indexed them with a traced value, which NumPy cannot do: TracerArrayConversionError; the answer is to call `jnp.asarray` on them first). This is that fix. Here a radio-interferometry sky model keeps its source catalogue in NumPy arrays and a jitted prediction indexes it with traced source ids."""
import jax
import jax.numpy as jnp
import numpy as np


class SkyModel:
    def __init__(self, n_sources=6, seed=0):
        rng = np.random.default_rng(seed)
        self.radec = jnp.asarray(rng.uniform(-0.01, 0.01, size=(n_sources, 2)))
        self.stokes = jnp.asarray(rng.uniform(0.5, 2.0, size=(n_sources,)))

    def visibilities(self, uvw, source_ids, gains):
        lm = self.radec[source_ids]
        flux = self.stokes[source_ids]
        phase = -2.0 * jnp.pi * (uvw[:, None, 0] * lm[None, :, 0] + uvw[:, None, 1] * lm[None, :, 1])
        return jnp.sum(gains[None, :] * flux[None, :] * jnp.cos(phase), axis=1)


sky = SkyModel()


@jax.jit
def predict(uvw, source_ids, gains):
    return sky.visibilities(uvw, source_ids, gains)


# --- oracle ---
def ENTRY():
    uvw = jnp.linspace(-50.0, 50.0, 8 * 3).reshape(8, 3)
    return predict, (uvw, jnp.array([0, 2, 3]), jnp.array([1.0, 0.9, 1.1]))
