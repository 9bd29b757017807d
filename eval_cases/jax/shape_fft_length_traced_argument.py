"""Source: https://github.com/jax-ml/jax/issues/15386 ("jit fails for fft": the FFT length passed as the second argument of the jitted function controls the output shape, so it cannot be traced)."""
import jax
import jax.numpy as jnp


@jax.jit
def power_spectrum(signal, n_fft):
    spectrum = jnp.fft.rfft(signal, n=n_fft)  # XLA: shape
    return jnp.abs(spectrum) ** 2


# --- oracle ---
def ENTRY():
    return power_spectrum, (jnp.sin(jnp.arange(16.0) * 0.7), 32)
