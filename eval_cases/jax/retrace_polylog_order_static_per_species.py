"""Source: https://github.com/cgiovanetti/LINX/issues/13 ("Frequent cache misses in Li": the thermodynamics module recompiled; `JAX_EXPLAIN_CACHE_MISSES` said "TRACING CACHE MISS ... for Li ... key with different value of static args: now 3 and before 4"). Here a background-cosmology energy density sums Bose-Einstein and Fermi-Dirac polylogarithm series whose order is a static argument of the jitted `Li`, called with a different order for each moment."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def Li(s, z, n_terms=40):
    k = jnp.arange(1, n_terms + 1, dtype=jnp.float32)
    return jnp.sum(z[..., None] ** k / k ** s, axis=-1)


def massless_moments(mu_over_T, g=2.0):
    z = jnp.exp(mu_over_T)
    number = g * Li(3, z)  # XLA: retrace
    energy = g * 3.0 * Li(4, z)
    return number, energy


def thermo_step(mu_over_T, order):
    z = jnp.exp(mu_over_T)
    return Li(order, z)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return thermo_step, (jnp.array([-0.5, -1.0, -2.0]), 3)


def ALT_ARGS():
    return [(jnp.array([-0.4, -1.1, -2.5]), 4)]
