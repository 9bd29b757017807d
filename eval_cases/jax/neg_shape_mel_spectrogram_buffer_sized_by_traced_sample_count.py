"""Source: https://github.com/jax-ml/jax/issues/14279 ("improve error message when jit tracer is passed into a shape": shapes inside `jit` must be static; the error message points to `static_argnums`). Near miss: the jitted feature extractor declares the sample count static (`static_argnames`), so the frame buffer's shape is a Python integer at trace time."""
from functools import partial

import jax
import jax.numpy as jnp

N_MELS = 8
HOP = 16


@partial(jax.jit, static_argnames="num_samples")
def frame_energies(audio, num_samples):
    n_frames = num_samples // HOP
    frames = jnp.zeros((N_MELS, n_frames))
    chunks = audio[: N_MELS * HOP].reshape(N_MELS, HOP)
    return frames + jnp.sum(chunks ** 2, axis=1, keepdims=True)


# --- oracle ---
def ENTRY():
    audio = jnp.sin(jnp.arange(256) * 0.05)
    return partial(frame_energies, num_samples=160), (audio,)
