"""Source: https://github.com/pyro-ppl/numpyro/issues/691 ("Can't use jit_model_args for multi chains": with `jit_model_args=True` the time-series forecasting tutorial's model fails inside `jax.numpy` indexing, because its `seasonality` argument, used as a length and a slice bound, is traced with the other model arguments; the answer: bind it with `partial(sgt, seasonality=38)` so it stays a Python int). Here a seasonal-trend forecaster takes the season length as an argument of the jitted function and slices the last season of its seasonal states with it."""
import jax
import jax.numpy as jnp


@jax.jit
def seasonal_forecast(y, seasonality, smoothing):
    level = jnp.cumsum(y) / jnp.arange(1, y.shape[0] + 1)
    seasonal = y - level
    last_season = seasonal[-seasonality:]  # XLA: shape
    return level[-1] + smoothing * jnp.tile(last_season, 2)


# --- oracle ---
def ENTRY():
    y = 10.0 + jnp.sin(jnp.arange(24, dtype=jnp.float32) * (2 * jnp.pi / 6))
    return seasonal_forecast, (y, jnp.array(6), jnp.float32(0.8))
