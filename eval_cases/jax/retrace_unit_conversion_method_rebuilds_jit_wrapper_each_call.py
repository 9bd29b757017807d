"""Source: https://github.com/GalacticDynamics/unxt/pull/906 ("document the jax.jit closure-identity recompile trap": `jax.jit` caches on the identity of the wrapped Python function, not on argument equality, so a jitted wrapper rebuilt inside a loop or a method body is traced and compiled again on every call; measured ~400x slower than building it once). Here a units-aware quantity class converts values with a method that wraps a fresh lambda in `jax.jit` on each call, called from an un-jitted analysis loop."""
import jax
import jax.numpy as jnp

SCALE = {("kpc", "km"): 3.0857e16, ("km", "kpc"): 1.0 / 3.0857e16, ("km", "km"): 1.0}


class Quantity:
    def __init__(self, value, unit):
        self.value = value
        self.unit = unit

    def to(self, unit):
        factor = SCALE[(self.unit, unit)]
        convert = jax.jit(lambda v: v * factor)  # XLA: retrace
        return Quantity(convert(self.value), unit)


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
