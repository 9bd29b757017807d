"""Source: https://github.com/jax-ml/jax/issues/1271 ("np.stack raises incorrect exception when given a traced array": `jnp.stack(x)` on a traced array inside `jax.jit` failed with "Abstract value passed to `bool`", because `stack` tested `if not arrays`; jax#1299 fixed `stack` and `concatenate`). No longer reproduces on jax 0.10.2. Here a jitted rollout summary stacks a traced `[steps, features]` observation array (one row per step) and normalizes it per step. (Reinforcement-learning rollout buffer normalizing a batch of observations.)"""
import jax
import jax.numpy as jnp


@jax.jit
def normalized_rollout(observations, rewards):
    stacked = jnp.stack(observations)
    mean = stacked.mean(axis=0, keepdims=True)
    std = stacked.std(axis=0, keepdims=True) + 1e-6
    returns = jnp.cumsum(rewards[::-1])[::-1]
    return (stacked - mean) / std, returns


# --- oracle ---
def ENTRY():
    obs = jnp.arange(5 * 3, dtype=jnp.float32).reshape(5, 3) / 7.0
    rewards = jnp.array([0.0, 1.0, 0.5, 0.0, 2.0])
    return normalized_rollout, (obs, rewards)
