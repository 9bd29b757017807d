"""Source: https://github.com/keras-team/keras-core/pull/623 (the workaround suggested there: keep the tile repetitions as Python ints (static shapes, or jax.ensure_compile_time_eval), so jnp.tile gets static reps under jit)."""
import jax
import jax.numpy as jnp


def causal_attention_mask(inputs):
    batch_size, seq_len = inputs.shape[0], inputs.shape[1]
    i = jnp.arange(seq_len)[:, None]
    j = jnp.arange(seq_len)
    mask = (i >= j).astype(jnp.int32)[None]
    return jnp.tile(mask, (batch_size, 1, 1))


@jax.jit
def masked_scores(x):
    scores = x @ jnp.swapaxes(x, 1, 2)
    return jnp.where(causal_attention_mask(x) > 0, scores, -1e9)


# --- oracle ---
def ENTRY():
    return masked_scores, (jnp.arange(24.0).reshape(2, 3, 4) / 24.0,)
