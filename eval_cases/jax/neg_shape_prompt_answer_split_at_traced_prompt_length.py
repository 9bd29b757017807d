"""Source: https://github.com/jax-ml/jax/issues/2506 (split points must be static under `jax.jit`; with `static_argnums` the index is a Python int at trace time and `jnp.split` works, one compilation per prompt length). Here the prompt length is a static argument of the jitted scorer."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def answer_score(token_embeddings, prompt_length, reward_head):
    prompt, answer = jnp.split(token_embeddings, [prompt_length])
    context = jnp.mean(prompt, axis=0)
    return jnp.mean(jnp.tanh(answer @ reward_head + context @ reward_head))


# --- oracle ---
def ENTRY():
    tokens = jnp.sin(jnp.arange(40.0).reshape(10, 4))
    return answer_score, (tokens, 6, jnp.array([0.5, -0.2, 0.1, 0.3]))
