"""Source: https://github.com/GalacticDynamics/unxt/pull/906 (the pattern the guide recommends: build the jitted function once, at module scope, and pass what changes as arguments, so every call hits the same cache entry). Here the units-aware quantity class converts values with one module-level jitted function that takes the scale factor as an argument."""
import jax
import jax.numpy as jnp

SCALE = {("kpc", "km"): 3.0857e16, ("km", "kpc"): 1.0 / 3.0857e16, ("km", "km"): 1.0}


@jax.jit
def _convert(value, factor):
    return value * factor


class Quantity:
    def __init__(self, value, unit):
        self.value = value
        self.unit = unit

    def to(self, unit):
        factor = SCALE[(self.unit, unit)]
        return Quantity(_convert(self.value, factor), unit)


def orbit_radius_km(positions_kpc):
    q = Quantity(positions_kpc, "kpc").to("km")
    return jnp.sqrt(jnp.sum(q.value ** 2, axis=-1))


# --- oracle ---
WRAP = False


def ENTRY():
    return orbit_radius_km, (jnp.array([[8.0, 0.1, 0.02], [7.5, 1.2, -0.1]]),)


def ALT_ARGS():
    return [(jnp.array([[8.1, 0.2, 0.01], [7.4, 1.3, -0.2]]),),
            (jnp.array([[8.2, 0.3, 0.0], [7.3, 1.4, -0.3]]),)]
