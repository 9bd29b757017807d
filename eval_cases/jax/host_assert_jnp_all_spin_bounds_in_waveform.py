"""Source: https://github.com/asantini29/phentax/pull/28 (the second cause fixed there: the spin-bound check `assert jnp.all(...)` in the waveform's initial processing raises during `jit` tracing, since `jnp.all()` of an abstract value cannot be evaluated to a Python bool). Here a binary-merger waveform checks its spin magnitudes with an `assert` inside the jitted model."""
import jax
import jax.numpy as jnp


def initial_processing(m1, m2, chi1, chi2):
    assert jnp.all(jnp.abs(jnp.stack([chi1, chi2])) <= 1.0), "spins must be in [-1, 1]"  # XLA: host
    mtot = m1 + m2
    eta = m1 * m2 / mtot ** 2
    chi_eff = (m1 * chi1 + m2 * chi2) / mtot
    return mtot, eta, chi_eff


@jax.jit
def phase_model(params, freqs):
    mtot, eta, chi_eff = initial_processing(params[0], params[1], params[2], params[3])
    v = (jnp.pi * mtot * 4.925e-6 * freqs) ** (1.0 / 3.0)
    return 3.0 / (128.0 * eta * v ** 5) * (1.0 + (3715.0 / 756.0 + 55.0 * eta / 9.0) * v ** 2 - 4.0 * chi_eff * v ** 3)


# --- oracle ---
def ENTRY():
    return phase_model, (jnp.array([30.0, 25.0, 0.3, -0.2]), jnp.linspace(20.0, 200.0, 8))
