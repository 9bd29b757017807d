"""Source: https://github.com/jax-ml/jax/issues/3285 ("lax.while_loop fails with zero iterations": a `fori_loop` body that indexes `vals[i]` is traced even for an empty array, and indexing a size-0 axis raises under `jax.jit`). The fix used here: the rewards are consumed by `lax.scan` over the array itself, which traces its body on one element's shape and runs zero times for an empty session, so no index into the empty axis is built. (Discounted return of logged user sessions in an offline RL pipeline.)"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def discounted_return(rewards, gamma):
    def body(carry, r):
        acc, scale = carry
        return (acc + scale * r, scale * gamma), None
    (total, _), _ = lax.scan(body, (jnp.zeros((), rewards.dtype), jnp.ones((), rewards.dtype)), rewards)
    return total


# --- oracle ---
def ENTRY():
    return discounted_return, (jnp.zeros((0,), jnp.float32), jnp.float32(0.9))
