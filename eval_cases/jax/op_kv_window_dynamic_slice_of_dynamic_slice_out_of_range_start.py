"""Source: https://github.com/jax-ml/jax/issues/40849 ("a dynamic_slice of dynamic_slice reads the wrong element for out-of-range start indices": XLA's algebraic simplifier merges `dynamic_slice(dynamic_slice(buf, (i,), (4,)), (j,), (1,))` into one slice of `buf` without the per-slice clamping, so under `jax.jit` a start index past the end reads `buf[9]` where op-by-op execution, following the DynamicSlice semantics, reads `buf[6]`; no error is raised). Here a decoder reads a 4-slot attention window from a key cache at the current position and then one slot inside it; near the end of the cache the position runs past the last full window."""
import jax
import jax.numpy as jnp
from jax import lax

WINDOW = 4


@jax.jit
def read_cached_key(cache, position, slot):
    window = lax.dynamic_slice(cache, (position, 0), (WINDOW, cache.shape[1]))
    key = lax.dynamic_slice(window, (slot, 0), (1, cache.shape[1]))  # XLA: op
    return key[0]


# --- oracle ---
def ENTRY():
    cache = jnp.arange(10 * 3, dtype=jnp.float32).reshape(10, 3)
    return read_cached_key, (cache, jnp.array(9), jnp.array(0))


def ALT_ARGS():
    cache = jnp.arange(10 * 3, dtype=jnp.float32).reshape(10, 3)
    return [(cache, jnp.array(3), jnp.array(5)), (cache, jnp.array(6), jnp.array(0))]
