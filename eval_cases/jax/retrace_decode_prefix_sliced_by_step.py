"""Source: https://github.com/jax-ml/jax/issues/837 ("One mistake I've made a few times is to pass inputs of different sizes into a jitted function, causing multiple recompilations. E.g. when sampling from a transformer sequence model, the context size initially grows")."""
import jax
import jax.numpy as jnp


@jax.jit
def next_token_logits(embed, context):
    h = embed[context]                      # (batch, t, d)
    return h.mean(axis=1) @ embed.T         # (batch, vocab)


def greedy_decode(embed, tokens, steps):
    for t in range(1, steps + 1):
        logits = next_token_logits(embed, tokens[:, :t])  # XLA: retrace
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
