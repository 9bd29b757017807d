"""Source: https://github.com/jax-ml/jax/pull/3656 (jax.nn.one_hot with a traced num_classes: "Abstract tracer value encountered where concrete value is expected (in jax.nn.one_hot argument `num_classes`)"; here the class count is taken from the labels)."""
import jax
import jax.numpy as jnp


@jax.jit
def cross_entropy(logits, labels):
    n_classes = labels.max() + 1
    targets = jax.nn.one_hot(labels, n_classes)  # XLA: shape
    return -jnp.mean(jnp.sum(targets * jax.nn.log_softmax(logits[:, : targets.shape[1]]), axis=-1))


# --- oracle ---
def ENTRY():
    return cross_entropy, (jnp.arange(12.0).reshape(3, 4) / 12.0, jnp.array([0, 3, 1]))
