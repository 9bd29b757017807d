"""Source: https://github.com/jax-ml/jax/issues/12331 (the axis of `squeeze` must be static; a Python integer, or one computed from the static `.shape` tuple with Python, is). Here the classification head finds the singleton axis with Python over `pooled.shape`, so `jnp.squeeze` gets an int under `jax.jit`."""
import jax
import jax.numpy as jnp


@jax.jit
def pooled_logits(features, w):
    pooled = jnp.mean(features, axis=1, keepdims=True)
    singleton_axis = pooled.shape.index(1)
    pooled = jnp.squeeze(pooled, singleton_axis)
    return pooled @ w


# --- oracle ---
def ENTRY():
    features = jnp.linspace(-1.0, 1.0, 2 * 5 * 3).reshape(2, 5, 3)
    w = jnp.array([[0.5, -0.2], [0.1, 0.3], [-0.4, 0.2]])
    return pooled_logits, (features, w)
