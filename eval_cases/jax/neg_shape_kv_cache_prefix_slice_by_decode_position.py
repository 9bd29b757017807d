"""Source: https://github.com/AakashKumarNain/mistral_jax/issues/1 (slicing the KV cache with `x.at[:pos]` under `jit`, with `pos` traced, raised an IndexError about non-static slice indices). Here the decode step attends over the whole fixed-size cache and masks the positions at or after `pos`, so the shapes do not depend on the position."""
import jax
import jax.numpy as jnp


def repeat_kv(x, kv_repeats):
    return jnp.repeat(x, kv_repeats, axis=1)


def decode_step(q, cache_k, cache_v, pos):
    keys = repeat_kv(cache_k, 2)
    values = repeat_kv(cache_v, 2)
    scores = jnp.einsum("hd,thd->ht", q, keys) / jnp.sqrt(q.shape[-1])
    valid = jnp.arange(cache_k.shape[0])[None, :] < pos
    scores = jnp.where(valid, scores, -1e9)
    return jnp.einsum("ht,thd->hd", jax.nn.softmax(scores, axis=-1), values)


# --- oracle ---
def ENTRY():
    cache_k = jnp.linspace(-1.0, 1.0, 64).reshape(8, 2, 4)
    cache_v = jnp.linspace(1.0, -1.0, 64).reshape(8, 2, 4)
    q = jnp.full((4, 4), 0.25)
    return decode_step, (q, cache_k, cache_v, jnp.asarray(5, jnp.int32))
