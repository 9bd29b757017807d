"""Source: https://github.com/jax-ml/jax/issues/1534 (the maintainers' rule: the scanned body must return a carry with the same structure and type as the initial carry). Here the jitted decoder rollout starts the "previous token" carry as a BOS id array (`jnp.int32(0)`) and the body returns the argmax token as an int32 array each step."""
import jax
import jax.numpy as jnp

VOCAB, HIDDEN = 6, 4
BOS = 0


def decoder_step(prev_token, h, w_in, w_out):
    emb = w_in[prev_token]
    h = jnp.tanh(h + emb)
    logits = h @ w_out
    return jnp.argmax(logits).astype(jnp.int32), logits


@jax.jit
def rollout(hidden_states, w_in, w_out):
    def body(prev_token, h):
        token, logits = decoder_step(prev_token, h, w_in, w_out)
        return token, logits

    _, logits = jax.lax.scan(body, jnp.int32(BOS), hidden_states)
    return logits


# --- oracle ---
def ENTRY():
    hs = jnp.linspace(-1.0, 1.0, 5 * HIDDEN).reshape(5, HIDDEN)
    w_in = jnp.linspace(-0.5, 0.5, VOCAB * HIDDEN).reshape(VOCAB, HIDDEN)
    w_out = jnp.cos(jnp.arange(HIDDEN * VOCAB, dtype=jnp.float32)).reshape(HIDDEN, VOCAB)
    return rollout, (hs, w_in, w_out)
