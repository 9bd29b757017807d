"""Source: https://github.com/jax-ml/jax/pull/39508 ("Better error message for non-static slice indices": a NumPy-style slice `x[i:i+2]` with `i` traced under jit raises IndexError "Array slice indices must have static start/stop/step"; the message now suggests `x[jax.ds(start, size)]` / `lax.dynamic_slice`). Here a jitted ECG feature extractor cuts a fixed-width window around the detected R peak with a plain slice whose start is the traced argmax."""
import jax
import jax.numpy as jnp

HALF_WIDTH = 4


@jax.jit
def beat_features(signal):
    peak = jnp.argmax(signal[HALF_WIDTH:-HALF_WIDTH]) + HALF_WIDTH
    window = signal[peak - HALF_WIDTH:peak + HALF_WIDTH]  # XLA: cond
    return jnp.stack([window.mean(), window.std(), window.max() - window.min()])


# --- oracle ---
def ENTRY():
    t = jnp.linspace(0.0, 1.0, 40)
    return beat_features, (jnp.exp(-((t - 0.6) ** 2) / 0.002) + 0.05 * jnp.sin(30.0 * t),)
