"""Source: https://github.com/patrick-kidger/lineax/issues/187 ("TracerBoolConversionError with jax>=0.8.2 and `LU.compute`": with jax 0.8.2 a value that the LU solver tested with a Python `if`/`else` became a tracer inside jitted solves, and `linear_solve` raised `TracerBoolConversionError`; the fix in pull request #188 replaced the `if`/`else` with `lax.cond`). Here a jitted Newton step for a small nonlinear system factors its Jacobian with `jax.scipy.linalg.lu_factor` and, with a Python `if`, falls back to a damped gradient step when a pivot is numerically zero. (Newton solver for a steady-state chemical reaction network.)"""
import jax
import jax.numpy as jnp
from jax.scipy.linalg import lu_factor, lu_solve


def residual(x, k):
    a, b, c = x[0], x[1], x[2]
    return jnp.array([k[0] - k[1] * a * b, k[1] * a * b - k[2] * c, a + b + c - 1.0])


@jax.jit
def newton_step(x, k):
    f = residual(x, k)
    jac = jax.jacfwd(residual)(x, k)
    lu, piv = lu_factor(jac)
    if jnp.min(jnp.abs(jnp.diag(lu))) < 1e-8:  # XLA: cond
        return x - 0.1 * jac.T @ f
    return x - lu_solve((lu, piv), f)


# --- oracle ---
def ENTRY():
    return newton_step, (jnp.array([0.3, 0.3, 0.4]), jnp.array([0.2, 1.5, 0.5]))


def ALT_ARGS():
    return [(jnp.array([0.5, 0.2, 0.3]), jnp.array([0.3, 1.2, 0.7]))]
