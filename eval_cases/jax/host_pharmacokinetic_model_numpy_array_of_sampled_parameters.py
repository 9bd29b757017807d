"""Source: https://github.com/pyro-ppl/numpyro/issues/570 ("MCM sampling with custom jax function": a NumPyro model packed its sampled parameters into `np.array([[pos, eff, sig, mean_time]])` for a JAX response function; NUTS traces the model's log density, so NumPy received tracers and the run failed). Here a jitted log-density of a mean-residence-time model packs its parameters with `np.array` before calling the response curve."""
import jax
import jax.numpy as jnp
import numpy as np

GRID = np.linspace(0.0, 20.0, 25).astype(np.float32)


def response(params, t):
    pos, eff, sig, mean_time = params[0]
    return eff * jnp.exp(-0.5 * ((t - pos) / sig) ** 2) + jnp.exp(-t / mean_time)


@jax.jit
def log_density(theta, observed):
    pos, eff, sig, mean_time = theta[0], theta[1], jnp.exp(theta[2]), jnp.exp(theta[3])
    params = np.array([[pos, eff, sig, mean_time]])  # XLA: host
    pred = response(params, GRID)
    return -0.5 * jnp.sum((pred - observed) ** 2) - 0.5 * jnp.sum(theta ** 2)


# --- oracle ---
def ENTRY():
    observed = jnp.exp(-jnp.asarray(GRID) / 8.0)
    return log_density, (jnp.array([10.0, 0.5, 0.0, 2.0]), observed)
