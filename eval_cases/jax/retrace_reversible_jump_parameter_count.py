"""Source: https://github.com/jax-ml/jax/issues/2521 ("Avoid recompilation caused by variably shaped arrays?": in reversible-jump MCMC the number of model parameters changes between proposals, so the jitted log-likelihood recompiles for every new size)."""
import jax
import jax.numpy as jnp


@jax.jit
def log_likelihood(params, t, y):  # XLA: retrace
    degrees = jnp.arange(params.shape[0])
    pred = jnp.sum(params[:, None] * t[None, :] ** degrees[:, None], axis=0)
    return -0.5 * jnp.sum((y - pred) ** 2)


# --- oracle ---
def _data():
    t = jnp.linspace(0.0, 1.0, 6)
    return t, 1.0 + 2.0 * t


def ENTRY():
    return log_likelihood, (jnp.array([1.0, 1.5]), *_data())


def ALT_ARGS():
    return [(jnp.array([1.0, 1.5, 0.2]), *_data()), (jnp.array([0.9, 2.0, 0.1, 0.0]), *_data())]
