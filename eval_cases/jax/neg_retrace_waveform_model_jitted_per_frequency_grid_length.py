"""Source: https://github.com/tedwards2412/ripple/issues/4 ("IMRPhenomD recompile everytime when input frequnecy changes": a jitted waveform compiles again for every new length of its frequency array). The fix used here: every segment's frequency grid is padded to one fixed length with a validity mask, so the jitted waveform always sees arrays of the same shape and compiles once; padded bins are dropped from the likelihood by the mask. (Post-Newtonian frequency-domain inspiral waveform.)"""
import jax
import jax.numpy as jnp

GRID = 128


@jax.jit
def inspiral_waveform(freqs, params):
    chirp_mass, eta, distance = params[0], params[1], params[2]
    total_mass = chirp_mass * eta ** (-0.6)
    v = (jnp.pi * total_mass * freqs) ** (1.0 / 3.0)
    psi = 3.0 / (128.0 * eta * v ** 5) * (1.0 + (3715.0 / 756.0 + 55.0 / 9.0 * eta) * v ** 2)
    amp = chirp_mass ** (5.0 / 6.0) * freqs ** (-7.0 / 6.0) / distance
    return amp * jnp.cos(psi), amp * jnp.sin(psi)


def segment_log_likelihood(freqs, mask, data_re, data_im, params):
    h_re, h_im = inspiral_waveform(freqs, params)
    return -0.5 * jnp.sum(mask * ((data_re - h_re) ** 2 + (data_im - h_im) ** 2))


# --- oracle ---
WRAP = False
PARAMS = jnp.array([0.3, 0.24, 10.0])


def _segment(n, f_lo):
    freqs = jnp.linspace(f_lo, f_lo + 0.5, n)
    pad = GRID - n
    freqs = jnp.concatenate([freqs, jnp.full(pad, freqs[-1])])
    mask = jnp.concatenate([jnp.ones(n), jnp.zeros(pad)])
    return freqs, mask, jnp.zeros(GRID), jnp.zeros(GRID), PARAMS


def ENTRY():
    return segment_log_likelihood, _segment(64, 1.0)


def ALT_ARGS():
    return [_segment(n, f) for n, f in ((96, 1.2), (80, 1.4), (112, 1.6))]
