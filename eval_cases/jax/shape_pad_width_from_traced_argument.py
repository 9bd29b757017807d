"""Source: https://github.com/jax-ml/jax/issues/3620 ("Padding doesn't work in jitted mode": the pad width on the last axis comes from a traced argument, so the output size depends on a value and `jnp.pad` raises a concretization error)."""
import jax
import jax.numpy as jnp


def pad_last_dim(array, pad_size):
    npad = [(0, 0)] * (array.ndim - 1) + [(0, pad_size)]
    return jnp.pad(array, npad, constant_values=0)  # XLA: shape


def frame_features(signal, frame_pad):
    return jnp.abs(jnp.fft.rfft(pad_last_dim(signal, frame_pad)))


# --- oracle ---
def ENTRY():
    return frame_features, (jnp.ones((2, 6)), 2)
