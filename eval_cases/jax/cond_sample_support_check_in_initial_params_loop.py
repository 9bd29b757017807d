"""Source: https://github.com/pyro-ppl/numpyro/issues/771 ("Omnistaging does not work when enabling distributions' validation": with sample validation on, a distribution's `_validate_sample` calls Python `bool` on `jnp.all(support_mask)` while `find_valid_initial_params` runs the potential energy inside the `body_fn` of its `while_loop`; once the loop is staged the mask is a tracer and `bool` raises ConcretizationTypeError). Here a half-normal likelihood with argument validation is evaluated inside the initialisation loop of an HMC sampler."""
import warnings

import jax
import jax.numpy as jnp
from jax import lax


class HalfNormal:
    def __init__(self, scale, validate_args=True):
        self.scale = scale
        self.validate_args = validate_args

    def _validate_sample(self, value):
        mask = value >= 0
        if not jnp.all(mask):  # XLA: cond
            warnings.warn("Out-of-support values provided to log prob method.")
        return mask

    def log_prob(self, value):
        if self.validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        return 0.5 * jnp.log(2.0 / (jnp.pi * var)) - value ** 2 / (2 * var)


def potential_energy(z, data):
    scale = jnp.exp(z[0])
    log_prior = HalfNormal(1.0).log_prob(scale)
    log_lik = jnp.sum(HalfNormal(scale).log_prob(data))
    return -(log_prior + log_lik + z[0])


def find_valid_initial_params(rng_key, data, max_tries=10):
    def cond_fn(state):
        i, _, _, is_valid = state
        return (i < max_tries) & ~is_valid

    def body_fn(state):
        i, key, _, _ = state
        key, subkey = jax.random.split(key)
        z = jax.random.uniform(subkey, (1,), minval=-2.0, maxval=2.0)
        pe, grad = jax.value_and_grad(potential_energy)(z, data)
        is_valid = jnp.isfinite(pe) & jnp.all(jnp.isfinite(grad))
        return i + 1, key, z, is_valid

    init_state = (0, rng_key, jnp.zeros(1), jnp.array(False))
    _, _, z, is_valid = lax.while_loop(cond_fn, body_fn, init_state)
    return z, is_valid


# --- oracle ---
COMPARE = True


def ENTRY():
    data = jnp.abs(jnp.linspace(-2.0, 3.0, 16))
    return find_valid_initial_params, (jax.random.PRNGKey(0), data)
