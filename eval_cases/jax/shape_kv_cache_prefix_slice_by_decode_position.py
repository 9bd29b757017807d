"""Source: https://github.com/AakashKumarNain/mistral_jax/issues/1 ("Error with `cache_slice` when generating": `x.at[:pos, :, :].get()` in `get_cache_slice` raised "IndexError: Array slice indices must have static start/stop/step to be used with NumPy indexing syntax. Found slice(None, Traced<ShapedArray(int32[])>..., None)" when called from the jitted generation step). Here a grouped-query attention decode step reads the key/value cache up to the current position and repeats the KV heads."""
import jax
import jax.numpy as jnp


def get_cache_slice(x, pos, kv_repeats):
    x_slice = x.at[:pos, :, :].get()  # XLA: shape
    return jnp.repeat(x_slice, kv_repeats, axis=1)


def decode_step(q, cache_k, cache_v, pos):
    keys = get_cache_slice(cache_k, pos, 2)
    values = get_cache_slice(cache_v, pos, 2)
    scores = jnp.einsum("hd,thd->ht", q, keys) / jnp.sqrt(q.shape[-1])
    return jnp.einsum("ht,thd->hd", jax.nn.softmax(scores, axis=-1), values)


# --- oracle ---
def ENTRY():
    cache_k = jnp.linspace(-1.0, 1.0, 64).reshape(8, 2, 4)
    cache_v = jnp.linspace(1.0, -1.0, 64).reshape(8, 2, 4)
    q = jnp.full((4, 4), 0.25)
    return decode_step, (q, cache_k, cache_v, jnp.asarray(5, jnp.int32))
