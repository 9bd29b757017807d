"""Source: https://github.com/google-research/scenic/issues/709 (near miss: the rate is a Python float from the config, closed over, so the comparison happens at trace time)."""
import jax
import jax.numpy as jnp

RATE = 0.1


def dropout(x, rate, key):
    if rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


@jax.jit
def forward(x, key):
    return dropout(x, RATE, key)


# --- oracle ---
COMPARE = False


def ENTRY():
    return forward, (jnp.ones([2, 4]), jax.random.PRNGKey(0))
