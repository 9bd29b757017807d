"""Source: https://github.com/jax-ml/jax/pull/6910 (`jnp.where` gained a `size=` argument: the first `size` indices are returned, padded with a fill value, so selecting active units compiles with a static shape)."""
import jax
import jax.numpy as jnp


def gather_active(activations, max_active=3):
    (idx,) = jnp.where(activations > 0.5, size=max_active, fill_value=0)
    valid = jnp.arange(max_active) < jnp.sum(activations > 0.5)
    return jnp.where(valid, activations[idx], 0.0)


# --- oracle ---
def ENTRY():
    return gather_active, (jnp.array([0.1, 0.9, 0.7, 0.2, 0.6]),)
