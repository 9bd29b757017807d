"""Source: https://github.com/google-research/scenic/issues/709 (Dropout's `if self.rate == 0.:` raised ConcretizationTypeError when the rate reached the jitted init as a traced value)."""
import jax
import jax.numpy as jnp


def dropout(x, rate, key):
    if rate == 0.0:  # XLA: cond
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


@jax.jit
def forward(x, rate, key):
    return dropout(x, rate, key)


# --- oracle ---
COMPARE = False


def ENTRY():
    return forward, (jnp.ones([2, 4]), jnp.array(0.1), jax.random.PRNGKey(0))
