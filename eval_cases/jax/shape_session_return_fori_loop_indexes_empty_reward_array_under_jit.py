"""Source: https://github.com/jax-ml/jax/issues/3285 ("lax.while_loop fails with zero iterations": a cumulative sum written as `lax.fori_loop(0, len(vals), lambda i, s: s + vals[i], 0)` returned 0 for an empty array with `jax.disable_jit()` but raised "IndexError: index is out of bounds for axis 0 with size 0" under `jax.jit`; the answer explains that the loop body is traced even when it runs zero times, and indexing a size-0 axis is invalid for any index). Here a jitted discounted-return function for reinforcement-learning sessions accumulates the rewards with `lax.fori_loop` and `rewards[i]`, and an empty session reaches it. (Discounted return of logged user sessions in an offline RL pipeline.)"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def discounted_return(rewards, gamma):
    def body(i, acc):
        return acc + gamma ** i * rewards[i]  # XLA: shape
    return lax.fori_loop(0, rewards.shape[0], body, jnp.zeros((), rewards.dtype))


# --- oracle ---
def ENTRY():
    return discounted_return, (jnp.zeros((0,), jnp.float32), jnp.float32(0.9))
