"""Source: https://github.com/jax-ml/jax/pull/22098 (`if True and flag:` on a traced flag raises TracerBoolConversionError under jit; here a dropout helper checks its `deterministic` flag, passed as an array, with `and`)."""
import jax
import jax.numpy as jnp

USE_DROPOUT = True


def dropout(key, x, rate, deterministic):
    if USE_DROPOUT and not deterministic:  # XLA: cond
        keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
        return jnp.where(keep, x / (1.0 - rate), 0.0)
    return x


def mlp_block(key, x, w, deterministic):
    return dropout(key, jax.nn.gelu(x @ w), 0.1, deterministic)


# --- oracle ---
def ENTRY():
    return mlp_block, (jax.random.PRNGKey(0), jnp.ones((2, 3)), jnp.ones((3, 4)) * 0.2, jnp.array(True))
