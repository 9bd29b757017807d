"""Source: https://github.com/pmelchior/scarlet2/issues/120 ("check conditions for jit cache misses": the jitted `Scene._make_step` is compiled again for every new fit, "TRACING CACHE MISS ... for _make_step", because each observation carries a renderer object built by `Observation.match` for its PSF, and that object is a static part of the jitted step's arguments; scarlet2#112 proposes building the renderer from the PSF array inside the likelihood instead). Here a galaxy-scene fitter builds a PSF renderer object per observation and passes it as a static argument of the jitted gradient step, so fitting the next observation, with arrays of the same shapes, compiles the step again."""
from functools import partial

import jax
import jax.numpy as jnp


class PSFRenderer:
    def __init__(self, psf):
        self.psf = psf

    def __call__(self, model):
        return jnp.convolve(model, self.psf, mode="same")


@partial(jax.jit, static_argnames="renderer")
def make_step(params, data, weights, renderer):
    def neg_log_likelihood(p):
        return 0.5 * jnp.sum(weights * (renderer(p) - data) ** 2)

    return params - 0.05 * jax.grad(neg_log_likelihood)(params)


def fit(init, data, weights, psf, steps=4):
    renderer = PSFRenderer(psf)
    params = init
    for _ in range(steps):
        params = make_step(params, data, weights, renderer=renderer)  # XLA: retrace
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
