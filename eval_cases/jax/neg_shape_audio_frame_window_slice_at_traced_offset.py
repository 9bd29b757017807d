"""Source: https://github.com/jax-ml/jax/issues/7222 (the fix the error message names: `lax.dynamic_slice` takes a traced start and a static size). Here the jitted keyword-spotting front end cuts the window with `jax.lax.dynamic_slice_in_dim` at the traced onset."""
import jax
import jax.numpy as jnp

WINDOW = 16


@jax.jit
def window_energy(waveform, onset):
    frame = jax.lax.dynamic_slice_in_dim(waveform, onset, WINDOW)
    hann = 0.5 - 0.5 * jnp.cos(2.0 * jnp.pi * jnp.arange(WINDOW) / WINDOW)
    spectrum = jnp.abs(jnp.fft.rfft(frame * hann))
    return jnp.log1p(spectrum)


# --- oracle ---
def ENTRY():
    waveform = jnp.sin(jnp.linspace(0.0, 12.0, 64))
    return window_energy, (waveform, 5)
