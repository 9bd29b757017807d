"""Source: https://github.com/jax-ml/jax/pull/7952 ("Improve error message when passing a tuple of non-concrete values as an axis argument": a jitted function that receives its reduction `axis` as an ordinary argument fails, because the axis must be known statically; the error now says "The axis argument must be known statically"). Here a jitted feature standardizer takes the axes to normalise over as a regular argument and passes them to `jnp.mean`/`jnp.std`."""
import jax
import jax.numpy as jnp


@jax.jit
def standardize(features, axes):
    mean = jnp.mean(features, axis=axes, keepdims=True)  # XLA: shape
    std = jnp.std(features, axis=axes, keepdims=True)
    return (features - mean) / (std + 1e-6)


# --- oracle ---
def ENTRY():
    features = jnp.linspace(-2.0, 3.0, 4 * 6 * 5).reshape(4, 6, 5)
    return standardize, (features, (0, 1))
