"""Source: https://github.com/jax-ml/jax/issues/837 (the usual answer to recompiling while sampling with a growing context: keep the token buffer at its full length and pass the position, masking what is not generated yet, so every step has the same shapes)."""
import jax
import jax.numpy as jnp


@jax.jit
def next_token_logits(embed, tokens, t):
    h = embed[tokens]                                        # (batch, max_len, d)
    mask = (jnp.arange(tokens.shape[1]) < t)[None, :, None]
    mean = jnp.sum(h * mask, axis=1) / t
    return mean @ embed.T


def greedy_decode(embed, tokens, steps):
    for t in range(1, steps + 1):
        logits = next_token_logits(embed, tokens, t)
        tokens = tokens.at[:, t].set(jnp.argmax(logits, axis=-1))
    return tokens


# --- oracle ---
WRAP = False


def ENTRY():
    embed = jnp.sin(jnp.arange(40.0).reshape(10, 4))
    return greedy_decode, (embed, jnp.zeros((2, 8), jnp.int32).at[:, 0].set(jnp.array([1, 3])), 3)


def ALT_ARGS():
    embed = jnp.sin(jnp.arange(40.0).reshape(10, 4))
    return [(embed, jnp.zeros((2, 8), jnp.int32).at[:, 0].set(jnp.array([2, 5])), 6)]
