"""Source: https://github.com/jax-ml/jax/issues/4409 (random.split with a count computed by jnp.log2 of a shape: the count is traced, not concrete, since JAX 0.2)."""
import jax
import jax.numpy as jnp


@jax.jit
def split_keys(key, mu):
    depth = (jnp.log2(mu.shape[0]) + 1).astype(jnp.int32)
    num_splittings = 2 ** (depth - 1) - 1
    keys = jax.random.split(key, num_splittings)  # XLA: shape
    return keys.shape[0] * jnp.sum(mu)


# --- oracle ---
def ENTRY():
    return split_keys, (jax.random.PRNGKey(0), jnp.ones([4, 2]))
