"""Source: https://github.com/jax-ml/jax/issues/2506 ("Confusing error message when passing a traced value to numpy.split": `jax.jit(lambda idx: np.split(np.zeros((6, 2)), idx))(2)` fails because the split points of `jnp.split` must be concrete, and a traced index cannot decide the output shapes). Here a reward model scores only the answer part of a packed prompt+answer sequence and splits it at a prompt length passed to the jitted scorer."""
import jax
import jax.numpy as jnp


@jax.jit
def answer_score(token_embeddings, prompt_length, reward_head):
    prompt, answer = jnp.split(token_embeddings, [prompt_length])  # XLA: shape
    context = jnp.mean(prompt, axis=0)
    return jnp.mean(jnp.tanh(answer @ reward_head + context @ reward_head))


# --- oracle ---
def ENTRY():
    tokens = jnp.sin(jnp.arange(40.0).reshape(10, 4))
    return answer_score, (tokens, 6, jnp.array([0.5, -0.2, 0.1, 0.3]))
