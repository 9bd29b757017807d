"""Written for fixes19 (issue 11, the JAX fixer): a second-order recurrence rolled out for a traced number of steps with a tuple update, `for _ in range(n)`."""
import jax
import jax.numpy as jnp


@jax.jit
def rollout(x, n):
    a, b = x, x * 0.5
    for _ in range(n):  # XLA: cond
        a, b = b, a + 0.1 * b
    return a + b


# --- oracle ---
def ENTRY():
    return rollout, (jnp.linspace(0.0, 1.0, 3), jnp.int32(5))
