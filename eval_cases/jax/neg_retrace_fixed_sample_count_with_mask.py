"""Source: https://github.com/jax-ml/jax/issues/648 (near miss: draw a fixed maximum number of samples and mask by a traced count, so one compilation serves every N)."""
import jax
import jax.numpy as jnp

MAX_SAMPLES = 32


@jax.jit
def sample(key, n):
    idx = jax.random.randint(key, (MAX_SAMPLES,), 0, 10).astype(jnp.float32)
    keep = jnp.arange(MAX_SAMPLES) < n
    return jnp.sum(jnp.where(keep, idx, 0.0)) / n


# --- oracle ---
def ENTRY():
    return sample, (jax.random.PRNGKey(0), jnp.array(8))


def ALT_ARGS():
    return [(jax.random.PRNGKey(1), jnp.array(16)), (jax.random.PRNGKey(2), jnp.array(32))]
