"""Source: https://github.com/dpiras/cosmopower-jax/issues/9 (the fix: build the emulator input as one JAX array; originally: "Setting up model with Numpyro?": the likelihood passes the sampled cosmological parameters to the emulator, whose input handling calls `np.stack` on them, and NUTS's jitted potential raises `TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array`; the reporter's fix was to pass the parameters as one array). Here the emulator stacks the sampled parameters with `jnp.stack`."""
import jax
import jax.numpy as jnp


class SpectrumEmulator:
    def __init__(self, w1, w2, mean, std):
        self.w1, self.w2, self.mean, self.std = w1, w2, mean, std

    def predict(self, params):
        x = jnp.stack([params["omega_cdm"], params["omega_b"], params["logA"], params["h"]])
        x = (x - self.mean) / self.std
        return jnp.tanh(x @ self.w1) @ self.w2


def make_potential(emulator, data, cinv):
    @jax.jit
    def potential(theta):
        params = {"omega_cdm": theta[0], "omega_b": theta[1], "logA": theta[2], "h": theta[3]}
        resid = emulator.predict(params) - data
        return 0.5 * resid @ cinv @ resid

    return potential


_KEEP = []


# --- oracle ---
def ENTRY():
    k1, k2 = jax.random.split(jax.random.PRNGKey(3))
    emu = SpectrumEmulator(jax.random.normal(k1, (4, 16)), jax.random.normal(k2, (16, 6)),
                           jnp.array([0.12, 0.022, 3.0, 0.7]), jnp.array([0.02, 0.003, 0.3, 0.05]))
    pot = make_potential(emu, jnp.zeros(6), jnp.eye(6))
    _KEEP[:] = [emu]
    return pot, (jnp.array([0.11, 0.021, 3.05, 0.68]),)
