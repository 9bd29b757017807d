"""Source: https://github.com/jax-ml/jax/pull/9549 ("Let random.choice mimic numpy behaviour and throw and error if more samples are requested than provided non-zero probabilities": checking `jnp.count_nonzero(p) < n` with a Python `if` inside `random.choice` raised "ConcretizationTypeError ... The problem arose with the `bool` function" under jit; issue #9548 explains that JAX cannot raise errors that depend on array values). Here a prioritized replay buffer's jitted sampler raises when fewer priorities than the batch size are non-zero."""
import jax
import jax.numpy as jnp


def sample_batch(key, priorities, transitions, batch_size=4):
    probs = priorities / jnp.sum(priorities)
    if jnp.count_nonzero(probs) < batch_size:  # XLA: cond
        raise ValueError("Fewer non-zero priorities than batch size")
    idx = jax.random.choice(key, priorities.shape[0], shape=(batch_size,), replace=False, p=probs)
    weights = (priorities.shape[0] * probs[idx]) ** -0.4
    return transitions[idx], weights / jnp.max(weights)


# --- oracle ---
COMPARE = False


def ENTRY():
    priorities = jnp.array([0.5, 1.0, 0.0, 2.0, 0.7, 0.1, 0.0, 1.5])
    return sample_batch, (jax.random.PRNGKey(0), priorities, jnp.arange(16.0).reshape(8, 2))
