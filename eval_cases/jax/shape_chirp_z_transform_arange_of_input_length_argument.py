"""Source: https://github.com/chromatix-team/chromatix/pull/150 ("Add chirp z transform.": the first version of `czt` was not compatible with `jit` because an `arange` over the input length was a dynamic array when the length came in as an argument; the author first made the length a static argument, then derived it from the input's shape instead). Here a jitted chirp-z transform of a propagated optical field takes the number of output bins `m` as a static argument but the number of samples `n` as an ordinary (traced) argument, and builds `jnp.arange(n)`."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("m",))
def czt(x, n, m, w, a):
    k = jnp.arange(n)  # XLA: shape
    kk = jnp.arange(-m + 1, max(m, x.shape[-1]))
    chirp = w ** (kk.astype(jnp.float32) ** 2 / 2)
    xp = x * (a ** -k.astype(jnp.float32)) * chirp[m - 1:m - 1 + x.shape[-1]]
    ichirpp = 1.0 / chirp[:m + x.shape[-1] - 1]
    nfft = 2 * (m + x.shape[-1])
    r = jnp.fft.ifft(jnp.fft.fft(xp, nfft) * jnp.fft.fft(ichirpp, nfft))
    return r[..., x.shape[-1] - 1:x.shape[-1] - 1 + m] * chirp[m - 1:2 * m - 1]


def field_spectrum(field, m=8):
    w = jnp.exp(-2j * jnp.pi / (4 * m))
    return czt(field, field.shape[-1], m, w, jnp.complex64(1.0))


# --- oracle ---
def ENTRY():
    field = jnp.exp(1j * jnp.linspace(0.0, 3.0, 12)).astype(jnp.complex64)
    return field_spectrum, (field,)
