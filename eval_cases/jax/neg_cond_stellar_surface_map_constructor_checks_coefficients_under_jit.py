"""Source: https://github.com/exoplanet-dev/jaxoplanet/issues/234 ("TracerBoolConversionError when trying to JIT jaxoplanet.experimental.starry objects": a constructor that branches in Python on its traced inputs cannot be built under jit; the fix moved the check into array code). Near miss / documented fix: the constructor replaces a zero leading coefficient with `jnp.where`, which traces."""
import jax
import jax.numpy as jnp


class SurfaceMap:
    def __init__(self, y, inc):
        y = y.at[0].set(jnp.where(y[0] == 0, 1.0, y[0]))
        self.y = y / y[0]
        self.inc = inc

    def intensity(self, phase):
        basis = jnp.stack([jnp.ones_like(phase), jnp.cos(phase), jnp.sin(phase)], axis=-1)
        return jnp.sin(self.inc) * basis @ self.y


@jax.jit
def light_curve(y, inc, phase):
    return SurfaceMap(y, inc).intensity(phase)


# --- oracle ---
def ENTRY():
    return light_curve, (jnp.array([1.0, 0.2, -0.1]), jnp.float32(1.2), jnp.linspace(0.0, 6.0, 16))
