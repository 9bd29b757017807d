"""Source: https://github.com/asantini29/phentax/pull/28 (a near miss of the fix: the spin check is made on the concrete parameters before the jitted model is called; originally, the second cause fixed there: the spin-bound check `assert jnp.all(...)` in the waveform's initial processing raises during `jit` tracing, since `jnp.all()` of an abstract value cannot be evaluated to a Python bool). Here the check runs in the eager wrapper around the jitted model."""
import jax
import jax.numpy as jnp


def initial_processing(m1, m2, chi1, chi2):
    mtot = m1 + m2
    eta = m1 * m2 / mtot ** 2
    chi_eff = (m1 * chi1 + m2 * chi2) / mtot
    return mtot, eta, chi_eff


@jax.jit
def phase_model(params, freqs):
    mtot, eta, chi_eff = initial_processing(params[0], params[1], params[2], params[3])
    v = (jnp.pi * mtot * 4.925e-6 * freqs) ** (1.0 / 3.0)
    return 3.0 / (128.0 * eta * v ** 5) * (1.0 + (3715.0 / 756.0 + 55.0 * eta / 9.0) * v ** 2 - 4.0 * chi_eff * v ** 3)


def phase(params, freqs):
    assert jnp.all(jnp.abs(params[2:4]) <= 1.0), "spins must be in [-1, 1]"
    return phase_model(params, freqs)


# --- oracle ---
WRAP = False


def ENTRY():
    return phase, (jnp.array([30.0, 25.0, 0.3, -0.2]), jnp.linspace(20.0, 200.0, 8))
