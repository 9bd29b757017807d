"""Source: https://github.com/pmelchior/scarlet2/issues/120 (the way out proposed in scarlet2#112: build the renderer from the PSF array inside the likelihood, so a new observation with arrays of the same shapes changes only traced values and the jitted step's cache is hit). Here the galaxy-scene fitter passes the PSF to the jitted gradient step as an array and convolves with it there, so every observation reuses one compiled step."""
import jax
import jax.numpy as jnp


@jax.jit
def make_step(params, data, weights, psf):
    def neg_log_likelihood(p):
        return 0.5 * jnp.sum(weights * (jnp.convolve(p, psf, mode="same") - data) ** 2)

    return params - 0.05 * jax.grad(neg_log_likelihood)(params)


def fit(init, data, weights, psf, steps=4):
    params = init
    for _ in range(steps):
        params = make_step(params, data, weights, psf)
    return params


# --- oracle ---
WRAP = False


def _observation(scale):
    x = jnp.linspace(-2.0, 2.0, 16)
    data = jnp.exp(-x ** 2) * scale
    psf = jnp.array([0.25, 0.5, 0.25]) * (1.0 + 0.1 * scale)
    return jnp.zeros(16), data, jnp.ones(16), psf


def ENTRY():
    return fit, _observation(1.0)


def ALT_ARGS():
    return [_observation(1.5), _observation(0.5)]
