"""Source: https://github.com/aesara-devs/aesara/issues/702 ("Errors with `jax.random.normal`'s `shape` parameter in version 0.2.26"; the fix, aesara PR 1284, hands `jax.random` the size as a static Python tuple instead of an array). Here the same jitted simulator takes the number of draws as a static Python int."""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("num_draws",))
def simulate_observations(key, weights, design, num_draws):
    noise = jax.random.normal(key, shape=(num_draws, design.shape[0]))
    mean = design @ weights
    return mean[None, :] + 0.1 * noise


# --- oracle ---
COMPARE = False


def ENTRY():
    design = jnp.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    return simulate_observations, (jax.random.PRNGKey(0), jnp.array([0.3, -0.7]), design, 4)
