"""Source: https://github.com/jax-ml/jax/issues/15386 (the maintainer's fix: mark the FFT length as static with static_argnums=1, so the output shape is known at trace time)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def power_spectrum(signal, n_fft):
    spectrum = jnp.fft.rfft(signal, n=n_fft)
    return jnp.abs(spectrum) ** 2


# --- oracle ---
def ENTRY():
    return lambda s: power_spectrum(s, 32), (jnp.sin(jnp.arange(16.0) * 0.7),)
