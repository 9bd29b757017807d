"""Source: https://github.com/jax-ml/jax/issues/40849 (the miscompilation only affects start indices that the DynamicSlice semantics would clamp; indices already inside their valid ranges give the same element compiled and op-by-op). Here the decoder clamps the cache position to the last full window and the slot to the window before slicing, so both slices read the documented element under `jax.jit`."""
import jax
import jax.numpy as jnp
from jax import lax

WINDOW = 4


@jax.jit
def read_cached_key(cache, position, slot):
    position = jnp.clip(position, 0, cache.shape[0] - WINDOW)
    slot = jnp.clip(slot, 0, WINDOW - 1)
    window = lax.dynamic_slice(cache, (position, 0), (WINDOW, cache.shape[1]))
    key = lax.dynamic_slice(window, (slot, 0), (1, cache.shape[1]))
    return key[0]


# --- oracle ---
def ENTRY():
    cache = jnp.arange(10 * 3, dtype=jnp.float32).reshape(10, 3)
    return read_cached_key, (cache, jnp.array(9), jnp.array(0))


def ALT_ARGS():
    cache = jnp.arange(10 * 3, dtype=jnp.float32).reshape(10, 3)
    return [(cache, jnp.array(3), jnp.array(5)), (cache, jnp.array(6), jnp.array(0))]
