"""Source: https://github.com/jax-ml/jax/issues/19433 (the workaround from the thread: build the fixed-length offsets with a static `jnp.arange(-1, 1)` and add the traced `x[0]`, so the length no longer depends on traced values). Here the jitted local-attention layer builds its window as `center + jnp.arange(-RADIUS, RADIUS + 1)`."""
import jax
import jax.numpy as jnp

RADIUS = 2


def window_indices(center, seq_len):
    idx = center + jnp.arange(-RADIUS, RADIUS + 1)
    return jnp.clip(idx, 0, seq_len - 1)


@jax.jit
def local_attention(query, keys, values, center):
    idx = window_indices(center, keys.shape[0])
    k = keys[idx]
    v = values[idx]
    scores = k @ query / jnp.sqrt(query.shape[-1])
    weights = jax.nn.softmax(scores)
    return weights @ v


# --- oracle ---
def ENTRY():
    keys = jnp.linspace(-1.0, 1.0, 48).reshape(12, 4)
    values = jnp.cos(keys)
    return local_attention, (jnp.array([0.5, -0.2, 0.1, 0.3]), keys, values, jnp.int32(5))
