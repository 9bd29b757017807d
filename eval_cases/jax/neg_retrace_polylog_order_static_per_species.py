"""Source: https://github.com/cgiovanetti/LINX/issues/13 ("Frequent cache misses in Li": the jitted polylogarithm took its order as a static argument and missed the cache whenever the order changed, "now 3 and before 4"). Here the order is passed as a traced array (the series only uses it as an exponent), so one compiled `Li` serves every moment."""
import jax
import jax.numpy as jnp


@jax.jit
def Li(s, z):
    k = jnp.arange(1, 41, dtype=jnp.float32)
    return jnp.sum(z[..., None] ** k / k ** s, axis=-1)


def massless_moments(mu_over_T, g=2.0):
    z = jnp.exp(mu_over_T)
    number = g * Li(jnp.float32(3), z)
    energy = g * 3.0 * Li(jnp.float32(4), z)
    return number, energy


def thermo_step(mu_over_T, order):
    z = jnp.exp(mu_over_T)
    return Li(jnp.asarray(order, jnp.float32), z)


# --- oracle ---
WRAP = False


def ENTRY():
    return thermo_step, (jnp.array([-0.5, -1.0, -2.0]), 3)


def ALT_ARGS():
    return [(jnp.array([-0.4, -1.1, -2.5]), 4)]
