"""Source: https://github.com/jax-ml/jax/issues/23356 ("jax.random.randint() fails when minval/maxval are traced, but aren't arrays": under nested `vmap`s and `scan`s the Python-int bounds become tracers and `_randint`'s shape check calls `np.shape(minval)`, which converts the tracer with `__array__` and raises TracerArrayConversionError). Here an augmentation pipeline draws crop offsets per image with `jax.random.randint` whose upper bound is the traced image extent, inside a vmap over images and a scan over augmentation rounds, all under `jax.jit`. On jax 0.10.2 (CPU) it traces, compiles and runs: the report no longer reproduces, so this is a negative."""
import jax
import jax.numpy as jnp


def crop_offset(key, extent, crop):
    return jax.random.randint(key, (), 0, extent - crop)


def augment_round(carry, key):
    images, extents = carry
    keys = jax.random.split(key, images.shape[0])
    offsets = jax.vmap(crop_offset, in_axes=(0, 0, None))(keys, extents, 2)
    shifted = jax.vmap(lambda img, off: jnp.roll(img, off, axis=0))(images, offsets)
    return (shifted, extents), offsets


@jax.jit
def augment(images, extents, key):
    keys = jax.random.split(key, 3)
    (images, _), offsets = jax.lax.scan(augment_round, (images, extents), keys)
    return images, offsets


# --- oracle ---
COMPARE = False


def ENTRY():
    images = jnp.arange(2 * 6 * 3, dtype=jnp.float32).reshape(2, 6, 3)
    return augment, (images, jnp.array([6, 5], dtype=jnp.int32), jax.random.PRNGKey(0))
