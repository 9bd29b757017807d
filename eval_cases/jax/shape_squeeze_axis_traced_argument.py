"""Source: https://github.com/jax-ml/jax/pull/12334 (`jax.numpy.squeeze(x, jax.numpy.array(1))` under jit: the axis is a traced value, "expected a static index or sequence of indices"; here the singleton axis is passed as an argument)."""
import jax
import jax.numpy as jnp


@jax.jit
def drop_channel_axis(features, channel_axis):
    return jnp.squeeze(features, channel_axis) * 2.0  # XLA: shape


# --- oracle ---
def ENTRY():
    return drop_channel_axis, (jnp.arange(6.0).reshape(2, 1, 3), jnp.array(1))
