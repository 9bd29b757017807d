"""Source: https://github.com/jax-ml/jax/issues/14279 ("improve error message when jit tracer is passed into a shape": `jnp.zeros((8, n))` with a traced `n` raises "Shapes must be 1D sequences of concrete values of integer type"; shapes inside `jit` must come from static values). Here a jitted feature extractor sizes its frame buffer from the number of valid samples, which is passed as an ordinary (traced) argument."""
import jax
import jax.numpy as jnp

N_MELS = 8
HOP = 16


@jax.jit
def frame_energies(audio, num_samples):
    n_frames = num_samples // HOP
    frames = jnp.zeros((N_MELS, n_frames))  # XLA: shape
    chunks = audio[: N_MELS * HOP].reshape(N_MELS, HOP)
    return frames + jnp.sum(chunks ** 2, axis=1, keepdims=True)


# --- oracle ---
def ENTRY():
    audio = jnp.sin(jnp.arange(256) * 0.05)
    return frame_energies, (audio, 160)
