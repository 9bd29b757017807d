"""Source: https://github.com/jax-ml/jax/pull/4312 ("improve an escaped tracer error message": it models an error several Flax and Haiku users hit once omnistaging was on: `def init(): global key; key, subkey = random.split(key); return random.normal(subkey, ())`; after `init = jit(init)` every call returns the same number, "repeated randomness but no error", and the stored key is an escaped tracer). Here a noisy exploration policy keeps its PRNG key on `self` and splits it inside a jitted method."""
import jax
import jax.numpy as jnp


class NoisyPolicy:
    def __init__(self, w, seed=0):
        self.w = w
        self.key = jax.random.PRNGKey(seed)
        self.act = jax.jit(self._act)

    def _act(self, obs, noise_scale):
        self.key, subkey = jax.random.split(self.key)  # XLA: host
        mean = jnp.tanh(obs @ self.w)
        return mean + noise_scale * jax.random.normal(subkey, mean.shape)


def collect(policy, obs, noise_scale):
    return policy.act(obs, noise_scale)


# --- oracle ---
WRAP = False
_KEEP = []


def ENTRY():
    policy = NoisyPolicy(jnp.full((3, 2), 0.2))
    _KEEP.append(policy)
    return policy.act, (jnp.array([[0.1, -0.4, 0.3]]), jnp.float32(0.5))


def ALT_ARGS():
    return [(jnp.array([[0.1, -0.4, 0.3]]), jnp.float32(0.5))]
