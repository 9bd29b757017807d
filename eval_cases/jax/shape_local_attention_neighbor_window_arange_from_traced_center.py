"""Source: https://github.com/jax-ml/jax/issues/19433 ("jax.numpy.arange resists JIT even with static shape": `jnp.arange(x[0] - 1, x[0] + 1)` always has two elements, yet under `jit` it raises ConcretizationTypeError, because `arange` needs concrete start/stop values to know its length; the workaround given is `jnp.arange(-1, 1) + x[0]`). Here a jitted local-attention layer gathers the keys in a window around a traced centre position with `jnp.arange(center - radius, center + radius + 1)`."""
import jax
import jax.numpy as jnp

RADIUS = 2


def window_indices(center, seq_len):
    idx = jnp.arange(center - RADIUS, center + RADIUS + 1)  # XLA: shape
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
