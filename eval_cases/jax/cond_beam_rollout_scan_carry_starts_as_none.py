"""Source: https://github.com/jax-ml/jax/issues/1534 ("`lax.scan` behavior does not match spec": a scan started with carry `None` whose body returned `0` as the new carry gave surprising outputs; the maintainers answered that the body must return a carry with the same tree structure as the initial one, `None` in both places or a value in both, and that this should raise an error, which it now does: "scan body function carry input and carry output must have the same pytree structure"). Here a jitted decoder rollout scans with a `None` "previous token" carry, and the body returns the argmax token as the next carry."""
import jax
import jax.numpy as jnp

VOCAB, HIDDEN = 6, 4


def decoder_step(prev_token, h, w_in, w_out):
    emb = jnp.zeros(HIDDEN) if prev_token is None else w_in[prev_token]
    h = jnp.tanh(h + emb)
    logits = h @ w_out
    return jnp.argmax(logits), logits


@jax.jit
def rollout(hidden_states, w_in, w_out):
    def body(prev_token, h):
        token, logits = decoder_step(prev_token, h, w_in, w_out)
        return token, logits

    _, logits = jax.lax.scan(body, None, hidden_states)  # XLA: cond
    return logits


# --- oracle ---
def ENTRY():
    hs = jnp.linspace(-1.0, 1.0, 5 * HIDDEN).reshape(5, HIDDEN)
    w_in = jnp.linspace(-0.5, 0.5, VOCAB * HIDDEN).reshape(VOCAB, HIDDEN)
    w_out = jnp.cos(jnp.arange(HIDDEN * VOCAB, dtype=jnp.float32)).reshape(HIDDEN, VOCAB)
    return rollout, (hs, w_in, w_out)
