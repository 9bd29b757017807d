"""Source: https://github.com/pyro-ppl/numpyro/issues/691 (the answer there: bind the season length with `functools.partial(sgt, seasonality=38)`, so it stays a Python int and only the data is traced). Here the seasonal-trend forecaster binds the season length with `partial` before `jax.jit`, so the slice of the last season is static."""
from functools import partial

import jax
import jax.numpy as jnp

SEASONALITY = 6


def _seasonal_forecast(y, smoothing, seasonality):
    level = jnp.cumsum(y) / jnp.arange(1, y.shape[0] + 1)
    seasonal = y - level
    last_season = seasonal[-seasonality:]
    return level[-1] + smoothing * jnp.tile(last_season, 2)


seasonal_forecast = jax.jit(partial(_seasonal_forecast, seasonality=SEASONALITY))


# --- oracle ---
def ENTRY():
    y = 10.0 + jnp.sin(jnp.arange(24, dtype=jnp.float32) * (2 * jnp.pi / 6))
    return seasonal_forecast, (y, jnp.float32(0.8))
