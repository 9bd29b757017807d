"""Source: https://github.com/jax-ml/jax/issues/6566 ("Difference between jit and non-jit output on CPU, but not on GPU and TPU": an attention score function adds `-1e30 * (1.0 - mask)` to the scores and subtracts their max; with `mask = 1.0` the added term is `-0.0`, and jitted on CPU the result collapsed to zeros, which the maintainers traced to an LLVM fast-math reassociation). On jax 0.10.2 CPU the jitted and op-by-op results agree, so the report no longer reproduces and this is a negative. Here an attention layer masks padded keys additively and normalises the scores before the softmax."""
import jax
import jax.numpy as jnp


@jax.jit
def masked_attention(q, k, v, key_mask):
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    scores = scores + -1.0 * 1e30 * (1.0 - key_mask)[None, :]
    scores = scores - scores.max(axis=-1, keepdims=True)
    return jax.nn.softmax(scores, axis=-1) @ v


# --- oracle ---
def ENTRY():
    q = jnp.array([[0.7, 0.5], [0.1, -0.3]])
    k = jnp.array([[0.2, 0.4], [0.9, -0.1], [0.3, 0.3]])
    v = jnp.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    return masked_attention, (q, k, v, jnp.array([1.0, 1.0, 0.0]))
