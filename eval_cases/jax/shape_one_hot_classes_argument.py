"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes19 (issue 11, the JAX fixer) with the fixer, as a cross-entropy loss builds one-hot targets with the number of classes passed to the jitted function."""
import jax
import jax.numpy as jnp


@jax.jit
def one_hot_loss(logits, labels, num_classes):
    onehot = jax.nn.one_hot(labels, num_classes)  # XLA: shape
    return -jnp.mean(jnp.sum(onehot * jax.nn.log_softmax(logits), axis=-1))


# --- oracle ---
def ENTRY():
    return one_hot_loss, (jnp.sin(jnp.arange(12.0)).reshape(3, 4), jnp.array([0, 3, 1]), 4)
