"""Source: https://github.com/jax-ml/jax/issues/7222 ("improve IndexError error message from abstracted values": NumPy-style slicing `x[i:i + n]` with a traced start raises "Array slice indices must have static start/stop/step"; the message points to `lax.dynamic_slice`). Here a jitted keyword-spotting front end cuts the analysis window out of the waveform at a traced onset with a Python slice."""
import jax
import jax.numpy as jnp

WINDOW = 16


@jax.jit
def window_energy(waveform, onset):
    frame = waveform[onset:onset + WINDOW]  # XLA: shape
    hann = 0.5 - 0.5 * jnp.cos(2.0 * jnp.pi * jnp.arange(WINDOW) / WINDOW)
    spectrum = jnp.abs(jnp.fft.rfft(frame * hann))
    return jnp.log1p(spectrum)


# --- oracle ---
def ENTRY():
    waveform = jnp.sin(jnp.linspace(0.0, 12.0, 64))
    return window_energy, (waveform, 5)
