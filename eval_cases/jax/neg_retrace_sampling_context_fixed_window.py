"""Source: https://github.com/jax-ml/jax/issues/837 (sampling with a growing context compiles at every step; the fix keeps a fixed-size token buffer and passes the current length as a traced value)."""
import jax
import jax.numpy as jnp

MAX_LEN = 8


@jax.jit
def next_token_logits(embedding, buffer, length):
    valid = (jnp.arange(MAX_LEN) < length)[:, None]
    h = jnp.sum(jnp.where(valid, embedding[buffer], 0.0), axis=0) / length
    return embedding @ h


def sample(embedding, prompt, steps=3):
    buffer = jnp.zeros(MAX_LEN, jnp.int32).at[:len(prompt)].set(jnp.array(prompt))
    length = len(prompt)
    for _ in range(steps):
        logits = next_token_logits(embedding, buffer, length)
        buffer = buffer.at[length].set(jnp.argmax(logits).astype(jnp.int32))
        length += 1
    return buffer


# --- oracle ---
WRAP = False
_EMB = jnp.arange(24.0).reshape(8, 3) / 24.0


def ENTRY():
    return sample, (_EMB, [1, 2])


def ALT_ARGS():
    return [(_EMB, [3, 4])]
