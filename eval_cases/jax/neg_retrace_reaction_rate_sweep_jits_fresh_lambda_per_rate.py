"""Source: https://github.com/jax-ml/jax/issues/14183 ("using `jax.tree_util.Partial` or `lambda` function triggers compilation": a new closure per parameter compiles again; the parameter should reach one jitted function as an argument, e.g. inside a `jax.tree_util.Partial`, whose bound arguments are pytree leaves). Near miss: the sweep passes `Partial(rate_rhs, rate)` to one module-level jitted integrator, so a new rate is a new leaf value of the same type and does not recompile."""
import jax
import jax.numpy as jnp
from jax import lax
from jax.tree_util import Partial

N_STEPS = 50
DT = 0.02


def rate_rhs(rate, y):
    return jnp.array([-rate * y[0], rate * y[0] - 0.5 * y[1]])


@jax.jit
def integrate(rhs, y0):
    def step(y, _):
        return y + DT * rhs(y), None

    y, _ = lax.scan(step, y0, None, length=N_STEPS)
    return y


def final_state(y0, rate):
    return integrate(Partial(rate_rhs, jnp.float32(rate)), y0)


# --- oracle ---
WRAP = False


def ENTRY():
    return final_state, (jnp.array([1.0, 0.0]), 0.5)


def ALT_ARGS():
    return [(jnp.array([1.0, 0.0]), 0.8), (jnp.array([1.0, 0.0]), 1.3)]
