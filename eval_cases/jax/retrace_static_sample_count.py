"""Source: https://github.com/jax-ml/jax/issues/648 (the sample count must be static for random.randint's shape; making it a static argument recompiles for every N)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def sample(key, n):  # XLA: retrace
    idx = jax.random.randint(key, (n,), 0, 10)
    return jnp.mean(idx.astype(jnp.float32))


# --- oracle ---
def ENTRY():
    return sample, (jax.random.PRNGKey(0), 8)


def ALT_ARGS():
    return [(jax.random.PRNGKey(1), 16), (jax.random.PRNGKey(2), 32)]
