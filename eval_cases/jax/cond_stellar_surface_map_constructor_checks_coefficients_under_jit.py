"""Source: https://github.com/exoplanet-dev/jaxoplanet/issues/234 ("TracerBoolConversionError when trying to JIT jaxoplanet.experimental.starry objects": building a starry surface object inside a jitted function fails because its constructor branches in Python on the values it is given). Here a jitted light-curve function builds a small spherical-harmonic surface map whose `__init__` normalises the coefficients with a Python `if` on whether the first one is zero."""
import jax
import jax.numpy as jnp


class SurfaceMap:
    def __init__(self, y, inc):
        if y[0] == 0:  # XLA: cond
            y = y.at[0].set(1.0)
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
