"""Source: https://github.com/jax-ml/jax/issues/9672 (the workaround given in the thread: apply `jax.jit` to the bound method once, in the constructor, and keep it on the instance, so every later call reuses one compiled function)."""
import jax
import jax.numpy as jnp


class NoiseAugment:
    def __init__(self, scale):
        self.scale = scale
        self.draw = jax.jit(self.draw)

    def draw(self, key, x):
        return x + self.scale * jax.random.normal(key, x.shape)


AUGMENT = NoiseAugment(0.1)


def augment_batches(key, batches):
    out = []
    for x in batches:
        key, sub = jax.random.split(key)
        out.append(AUGMENT.draw(sub, x))
    return jnp.stack(out)


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    return augment_batches, (jax.random.PRNGKey(0), jnp.ones((3, 4)))


def ALT_ARGS():
    return [(jax.random.PRNGKey(1), jnp.zeros((3, 4)))]
