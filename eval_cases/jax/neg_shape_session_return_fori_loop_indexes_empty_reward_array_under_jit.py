"""Source: https://github.com/jax-ml/jax/issues/3285 ("lax.while_loop fails with zero iterations": a `fori_loop` body that indexes `vals[i]` is traced even for an empty array, and indexing a size-0 axis raises under `jax.jit`). The fix used here: the discounted return is computed without a loop, as the sum of the rewards weighted by `gamma ** jnp.arange(n)`, which is a valid (empty) computation for an empty session. (Discounted return of logged user sessions in an offline RL pipeline.)"""
import jax
import jax.numpy as jnp


@jax.jit
def discounted_return(rewards, gamma):
    discounts = gamma ** jnp.arange(rewards.shape[0], dtype=rewards.dtype)
    return jnp.sum(discounts * rewards)


# --- oracle ---
def ENTRY():
    return discounted_return, (jnp.zeros((0,), jnp.float32), jnp.float32(0.9))
