"""Source: https://github.com/climate-analytics-lab/jax-gcm/issues/797 (a `lax.cond` compiles when both branches return the same dtype: cast the physics result back to the dynamics dtype in the branch that changes it). Here the jitted surface-flux step's land branch, computed in bfloat16 physics, casts its flux back to float32 so both branches agree."""
import jax
import jax.numpy as jnp

PHYSICS_DTYPE = jnp.bfloat16


def land_flux(t_skin, t_air, wind):
    out_dtype = t_skin.dtype
    t_skin = t_skin.astype(PHYSICS_DTYPE)
    t_air = t_air.astype(PHYSICS_DTYPE)
    flux = PHYSICS_DTYPE(1.2e-3) * wind.astype(PHYSICS_DTYPE) * (t_skin - t_air)
    return flux.astype(out_dtype)


def sea_flux(t_skin, t_air, wind):
    return 1.0e-3 * wind * (t_skin - t_air)


@jax.jit
def surface_flux(is_land, t_skin, t_air, wind):
    return jax.lax.cond(is_land, land_flux, sea_flux, t_skin, t_air, wind)


# --- oracle ---
COMPARE = False


def ENTRY():
    t_skin = jnp.linspace(280.0, 300.0, 6)
    t_air = jnp.linspace(278.0, 296.0, 6)
    wind = jnp.linspace(2.0, 8.0, 6)
    return surface_flux, (jnp.bool_(True), t_skin, t_air, wind)
