"""Written for fixes19 (issue 11, the JAX fixer): a cross-entropy loss builds one-hot targets with the number of classes passed to the jitted function."""
import jax
import jax.numpy as jnp


@jax.jit
def one_hot_loss(logits, labels, num_classes):
    onehot = jax.nn.one_hot(labels, num_classes)  # XLA: shape
    return -jnp.mean(jnp.sum(onehot * jax.nn.log_softmax(logits), axis=-1))


# --- oracle ---
def ENTRY():
    return one_hot_loss, (jnp.sin(jnp.arange(12.0)).reshape(3, 4), jnp.array([0, 3, 1]), 4)
