"""Source: https://github.com/jax-ml/jax/pull/4312 (the functional fix: thread the key through the jitted function and return the new one; originally: "improve an escaped tracer error message": it models an error several Flax and Haiku users hit once omnistaging was on: `def init(): global key; key, subkey = random.split(key); return random.normal(subkey, ())`; after `init = jit(init)` every call returns the same number, "repeated randomness but no error", and the stored key is an escaped tracer). Here the jitted policy takes the key as an argument and returns the next key."""
import jax
import jax.numpy as jnp


@jax.jit
def act(w, key, obs, noise_scale):
    key, subkey = jax.random.split(key)
    mean = jnp.tanh(obs @ w)
    return mean + noise_scale * jax.random.normal(subkey, mean.shape), key


class NoisyPolicy:
    def __init__(self, w, seed=0):
        self.w = w
        self.key = jax.random.PRNGKey(seed)

    def act(self, obs, noise_scale):
        action, self.key = act(self.w, self.key, obs, noise_scale)
        return action


# --- oracle ---
WRAP = False
_KEEP = []


def ENTRY():
    policy = NoisyPolicy(jnp.full((3, 2), 0.2))
    _KEEP.append(policy)
    return policy.act, (jnp.array([[0.1, -0.4, 0.3]]), jnp.float32(0.5))


def ALT_ARGS():
    return [(jnp.array([[0.1, -0.4, 0.3]]), jnp.float32(0.5))]
