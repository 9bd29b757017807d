"""Source: https://github.com/jax-ml/jax/issues/14183 ("using `jax.tree_util.Partial` or `lambda` function triggers compilation": wrapping a jitted function in a new `lambda` or closure for each parameter value compiles again on every call; the advice is to pass the parameter as an argument or a `Partial` pytree to one jitted function). Here a parameter sweep over reaction rates builds `jax.jit(lambda y0: integrate(y0, rate))` for each rate, so every rate compiles its own executable."""
import jax
import jax.numpy as jnp
from jax import lax

N_STEPS = 50
DT = 0.02


def integrate(y0, rate):
    def step(y, _):
        return y + DT * jnp.array([-rate * y[0], rate * y[0] - 0.5 * y[1]]), None

    y, _ = lax.scan(step, y0, None, length=N_STEPS)
    return y


def final_state(y0, rate):
    solve = jax.jit(lambda y: integrate(y, rate))  # XLA: retrace
    return solve(y0)


# --- oracle ---
WRAP = False


def ENTRY():
    return final_state, (jnp.array([1.0, 0.0]), 0.5)


def ALT_ARGS():
    return [(jnp.array([1.0, 0.0]), 0.8), (jnp.array([1.0, 0.0]), 1.3)]
