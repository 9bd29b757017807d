"""Source: https://github.com/chromatix-team/chromatix/pull/150 (the final version: "actually didn't need to set `n` at the input so I removed it": the length is read from `x.shape[-1]`, which is static under `jit`). Here the jitted chirp-z transform takes the number of samples from the field's shape."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("m",))
def czt(x, m, w, a):
    n = x.shape[-1]
    k = jnp.arange(n)
    kk = jnp.arange(-m + 1, max(m, n))
    chirp = w ** (kk.astype(jnp.float32) ** 2 / 2)
    xp = x * (a ** -k.astype(jnp.float32)) * chirp[m - 1:m - 1 + n]
    ichirpp = 1.0 / chirp[:m + n - 1]
    nfft = 2 * (m + n)
    r = jnp.fft.ifft(jnp.fft.fft(xp, nfft) * jnp.fft.fft(ichirpp, nfft))
    return r[..., n - 1:n - 1 + m] * chirp[m - 1:2 * m - 1]


def field_spectrum(field, m=8):
    w = jnp.exp(-2j * jnp.pi / (4 * m))
    return czt(field, m, w, jnp.complex64(1.0))


# --- oracle ---
def ENTRY():
    field = jnp.exp(1j * jnp.linspace(0.0, 3.0, 12)).astype(jnp.complex64)
    return field_spectrum, (field,)
