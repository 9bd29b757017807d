"""Source: https://github.com/google-deepmind/chex/issues/387 (the near miss: assert only static facts, here the batch shapes, inside the jitted step; originally: "jitted, chexified chex.assert_equal fails for value assertions": `chex.assert_equal(x, 0)` inside a jitted function raises "Chex assertion detected `ConcretizationTypeError`" because the assertion compares traced values with `unittest.TestCase().assertEqual`; the fix PR #435 notes the TracerBoolConversionError). Here the `unittest`-based equality assertion checks the batch sizes, which are static."""
import unittest

import jax
import jax.numpy as jnp

_tc = unittest.TestCase()


def assert_equal(first, second):
    _tc.assertEqual(first, second)


def td_update(q_params, obs, actions, rewards, dones, next_obs, gamma=0.99):
    assert_equal(dones.shape[0], obs.shape[0])
    q = obs @ q_params
    q_next = next_obs @ q_params
    target = rewards + gamma * (1.0 - dones) * jnp.max(q_next, axis=-1)
    q_taken = jnp.take_along_axis(q, actions[:, None], axis=-1)[:, 0]
    return jnp.mean((jax.lax.stop_gradient(target) - q_taken) ** 2)


step = jax.jit(jax.grad(td_update))


# --- oracle ---
WRAP = False


def ENTRY():
    obs = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    return step, (jnp.full((3, 2), 0.1), obs, jnp.array([0, 1, 1, 0]), jnp.array([1.0, 0.0, 0.5, 1.0]),
                  jnp.array([0.0, 0.0, 0.0, 1.0]), obs[::-1])
