"""Source: https://github.com/jax-ml/jax/pull/16430 (TracerBoolConversionError docs: the Python idiom `z = value or default` is a boolean conversion, so an optional scalar argument defaulted with `or` fails under jit)."""
import jax
import jax.numpy as jnp

DEFAULT_SMOOTHING = 0.1


def smoothed_nll(logits, labels, smoothing=None):
    smoothing = smoothing or DEFAULT_SMOOTHING  # XLA: cond
    n = logits.shape[-1]
    targets = jax.nn.one_hot(labels, n) * (1.0 - smoothing) + smoothing / n
    return -jnp.mean(jnp.sum(targets * jax.nn.log_softmax(logits), axis=-1))


# --- oracle ---
def ENTRY():
    logits = jnp.array([[1.0, 0.5, -0.2], [0.1, 0.2, 0.3]])
    return smoothed_nll, (logits, jnp.array([0, 2]), jnp.float32(0.2))
