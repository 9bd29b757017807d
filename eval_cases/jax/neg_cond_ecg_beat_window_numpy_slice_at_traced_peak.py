"""Source: https://github.com/jax-ml/jax/pull/39508 ("Better error message for non-static slice indices": a slice with a traced start fails under jit; the suggested fix is `lax.dynamic_slice` with a static size). Near miss / documented fix: the window around the traced R peak is cut with `lax.dynamic_slice_in_dim` and the static width `2 * HALF_WIDTH`."""
import jax
import jax.numpy as jnp
from jax import lax

HALF_WIDTH = 4


@jax.jit
def beat_features(signal):
    peak = jnp.argmax(signal[HALF_WIDTH:-HALF_WIDTH]) + HALF_WIDTH
    window = lax.dynamic_slice_in_dim(signal, peak - HALF_WIDTH, 2 * HALF_WIDTH)
    return jnp.stack([window.mean(), window.std(), window.max() - window.min()])


# --- oracle ---
def ENTRY():
    t = jnp.linspace(0.0, 1.0, 40)
    return beat_features, (jnp.exp(-((t - 0.6) ** 2) / 0.002) + 0.05 * jnp.sin(30.0 * t),)
