"""Source: https://github.com/patrick-kidger/lineax/issues/187 ("TracerBoolConversionError with jax>=0.8.2 and `LU.compute`": a Python `if`/`else` on a value that is traced inside jitted solves; the fix in pull request #188 replaced it with `lax.cond`). The fix used here: the choice between the Newton update and the damped gradient step is made with `lax.cond` on the traced pivot check. (Newton solver for a steady-state chemical reaction network.)"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.linalg import lu_factor, lu_solve


def residual(x, k):
    a, b, c = x[0], x[1], x[2]
    return jnp.array([k[0] - k[1] * a * b, k[1] * a * b - k[2] * c, a + b + c - 1.0])


@jax.jit
def newton_step(x, k):
    f = residual(x, k)
    jac = jax.jacfwd(residual)(x, k)
    lu, piv = lu_factor(jac)
    singular = jnp.min(jnp.abs(jnp.diag(lu))) < 1e-8
    return lax.cond(singular,
                    lambda: x - 0.1 * jac.T @ f,
                    lambda: x - lu_solve((lu, piv), f))


# --- oracle ---
def ENTRY():
    return newton_step, (jnp.array([0.3, 0.3, 0.4]), jnp.array([0.2, 1.5, 0.5]))


def ALT_ARGS():
    return [(jnp.array([0.5, 0.2, 0.3]), jnp.array([0.3, 1.2, 0.7]))]
