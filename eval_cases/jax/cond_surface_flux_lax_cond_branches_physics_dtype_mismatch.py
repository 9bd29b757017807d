"""Source: https://github.com/climate-analytics-lab/jax-gcm/issues/797 ("physics=speedy on the pySES backend crashes on a float64/float32 lax.cond mismatch in speedy_surface_flux": with the dynamics in one precision and the physics in another (`physics_dtype`), a `lax.cond` in the surface-flux code returned the dynamics dtype from one branch and the physics dtype from the other, and failed with "cond branches must have equal output types"). Here a jitted surface-flux step runs its physics in bfloat16; the land branch of a `lax.cond` computes in the physics dtype while the sea branch returns the float32 dynamics value."""
import jax
import jax.numpy as jnp

PHYSICS_DTYPE = jnp.bfloat16


def land_flux(t_skin, t_air, wind):
    t_skin = t_skin.astype(PHYSICS_DTYPE)
    t_air = t_air.astype(PHYSICS_DTYPE)
    return PHYSICS_DTYPE(1.2e-3) * wind.astype(PHYSICS_DTYPE) * (t_skin - t_air)


def sea_flux(t_skin, t_air, wind):
    return 1.0e-3 * wind * (t_skin - t_air)


@jax.jit
def surface_flux(is_land, t_skin, t_air, wind):
    return jax.lax.cond(is_land, land_flux, sea_flux, t_skin, t_air, wind)  # XLA: cond


# --- oracle ---
def ENTRY():
    t_skin = jnp.linspace(280.0, 300.0, 6)
    t_air = jnp.linspace(278.0, 296.0, 6)
    wind = jnp.linspace(2.0, 8.0, 6)
    return surface_flux, (jnp.bool_(True), t_skin, t_air, wind)
