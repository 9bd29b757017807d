"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as a masked language-model loss selects the log-probabilities of the labelled tokens with a boolean mask and negates them before averaging."""
import jax
import jax.numpy as jnp


@jax.jit
def masked_token_loss(logits, labels):
    valid = labels != -100
    logp = jax.nn.log_softmax(logits)
    picked = jnp.take_along_axis(logp, jnp.maximum(labels, 0)[..., None], axis=-1)[..., 0]
    nll = -picked[valid]  # XLA: shape
    return nll.mean()


# --- oracle ---
def ENTRY():
    logits = jnp.sin(jnp.arange(2 * 5 * 7, dtype=jnp.float32)).reshape(2, 5, 7)
    labels = jnp.array([[1, 2, -100, 3, -100], [0, -100, 6, 6, 1]])
    return masked_token_loss, (logits, labels)
