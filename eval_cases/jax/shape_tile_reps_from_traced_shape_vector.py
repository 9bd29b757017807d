"""Source: https://github.com/keras-team/keras-core/pull/623 (the Transformer NMT example could not run on JAX: get_causal_attention_mask tiles the mask with reps built by concatenating shape values into an array, and jnp.tile needs static reps under jit)."""
import jax
import jax.numpy as jnp


def causal_attention_mask(inputs):
    batch_size, seq_len = inputs.shape[0], inputs.shape[1]
    i = jnp.arange(seq_len)[:, None]
    j = jnp.arange(seq_len)
    mask = (i >= j).astype(jnp.int32)[None]
    mult = jnp.concatenate([jnp.array([batch_size]), jnp.array([1, 1])])
    return jnp.tile(mask, mult)  # XLA: shape


@jax.jit
def masked_scores(x):
    scores = x @ jnp.swapaxes(x, 1, 2)
    return jnp.where(causal_attention_mask(x) > 0, scores, -1e9)


# --- oracle ---
def ENTRY():
    return masked_scores, (jnp.arange(24.0).reshape(2, 3, 4) / 24.0,)
