"""Source: https://github.com/jax-ml/jax/issues/12331 (`jax.numpy.squeeze(x, jax.numpy.array(1))` inside `jax.jit` fails: the axis is a traced array, and `squeeze` needs a static axis; the fix in jax#12334 only turned the error into a ConcretizationTypeError). Here a classification head pools a feature map and squeezes the singleton axis, which it finds with `jnp.argmax` over the array's shape inside the jitted function."""
import jax
import jax.numpy as jnp


@jax.jit
def pooled_logits(features, w):
    pooled = jnp.mean(features, axis=1, keepdims=True)
    singleton_axis = jnp.argmax(jnp.array(pooled.shape) == 1)
    pooled = jnp.squeeze(pooled, singleton_axis)  # XLA: shape
    return pooled @ w


# --- oracle ---
def ENTRY():
    features = jnp.linspace(-1.0, 1.0, 2 * 5 * 3).reshape(2, 5, 3)
    w = jnp.array([[0.5, -0.2], [0.1, 0.3], [-0.4, 0.2]])
    return pooled_logits, (features, w)
