"""Source: https://github.com/jax-ml/jax/issues/837 ("Feature request: log compilation": when sampling from a transformer sequence model the context grows, so inputs of a new size reach the jitted function and it compiles again at every step)."""
import jax
import jax.numpy as jnp


@jax.jit
def next_token_logits(embedding, context):
    h = jnp.mean(embedding[context], axis=0)
    return embedding @ h


def sample(embedding, prompt, steps=3):
    tokens = list(prompt)
    for _ in range(steps):
        logits = next_token_logits(embedding, jnp.array(tokens))  # XLA: retrace
        tokens.append(int(jnp.argmax(logits)))
    return jnp.array(tokens)


# --- oracle ---
WRAP = False
_EMB = jnp.arange(24.0).reshape(8, 3) / 24.0


def ENTRY():
    return sample, (_EMB, [1, 2])


def ALT_ARGS():
    return [(_EMB, [3, 4, 5])]
