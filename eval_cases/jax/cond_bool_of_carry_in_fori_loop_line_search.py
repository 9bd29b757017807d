"""Source: https://github.com/jax-ml/jax/issues/23637 ("when a tracer error happens in for_loop, should point to the user's body function": `jax.lax.fori_loop(0, 5, body, 3.)` with `def body(_, c): return bool(c)` raises TracerBoolConversionError, the loop carry being traced inside the body). Here a backtracking line search runs in `fori_loop` and its body tests the Armijo condition on the carry with a Python `if`."""
import jax
import jax.numpy as jnp


def objective(x):
    return jnp.sum((x - 1.0) ** 2) + 0.1 * jnp.sum(x ** 4)


def backtracking_step(x, direction, num_halvings=6):
    f0 = objective(x)
    slope = jnp.dot(jax.grad(objective)(x), direction)

    def body(i, step):
        if objective(x + step * direction) > f0 + 1e-4 * step * slope:  # XLA: cond
            return 0.5 * step
        return step

    step = jax.lax.fori_loop(0, num_halvings, body, jnp.float32(1.0))
    return x + step * direction


def descend(x):
    for _ in range(3):
        x = backtracking_step(x, -jax.grad(objective)(x))
    return x


# --- oracle ---
def ENTRY():
    return descend, (jnp.array([3.0, -2.0, 0.5]),)
