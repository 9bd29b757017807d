"""Source: https://github.com/MIT-Lu-Lab/MPAX/issues/1 ("jax.errors.ConcretizationTypeError": `create_lp` built the standard form of a linear program with the one-argument `jnp.where` over the finite bounds, whose result size depends on the data, so calling it inside `jax.jit`/`vmap` failed; the fix made the number of constraints static). Here a jitted LP set-up keeps only the rows whose upper bound is finite with one-argument `jnp.where` before assembling the constraint matrix."""
import jax
import jax.numpy as jnp


def standard_form(c, A, upper):
    finite_rows = jnp.where(jnp.isfinite(upper))[0]  # XLA: shape
    A_ub = A[finite_rows]
    b_ub = upper[finite_rows]
    return c, A_ub, b_ub


@jax.jit
def lp_residual(c, A, upper, x):
    c, A_ub, b_ub = standard_form(c, A, upper)
    slack = jnp.maximum(A_ub @ x - b_ub, 0.0)
    return c @ x + 10.0 * jnp.sum(slack)


# --- oracle ---
def ENTRY():
    A = jnp.array([[1.0, 2.0], [0.5, -1.0], [3.0, 1.0]])
    upper = jnp.array([4.0, jnp.inf, 6.0])
    return lp_residual, (jnp.array([1.0, -1.0]), A, upper, jnp.array([0.5, 0.25]))
