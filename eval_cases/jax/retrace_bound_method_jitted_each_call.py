"""Source: https://github.com/jax-ml/jax/issues/15338 ("Recompilation of bounded methods": `jax.jit(obj.method)` builds a new bound-method object on every attribute access, so JAX's cache, keyed on the callable, misses and the method is traced and compiled again on every call, while a free function hits the cache)."""
import jax
import jax.numpy as jnp


class NoiseAugment:
    def __init__(self, scale):
        self.scale = scale

    def draw(self, key, x):
        return x + self.scale * jax.random.normal(key, x.shape)


AUGMENT = NoiseAugment(0.1)


def augment_batches(key, batches):
    out = []
    for x in batches:
        key, sub = jax.random.split(key)
        out.append(jax.jit(AUGMENT.draw)(sub, x))  # XLA: retrace
    return jnp.stack(out)


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    return augment_batches, (jax.random.PRNGKey(0), jnp.ones((3, 4)))


def ALT_ARGS():
    return [(jax.random.PRNGKey(1), jnp.zeros((3, 4)))]
