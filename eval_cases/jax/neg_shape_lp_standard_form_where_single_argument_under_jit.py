"""Source: https://github.com/MIT-Lu-Lab/MPAX/issues/1 (the documented fix: the jittable `create_lp` keeps a static number of constraints). Here the LP set-up keeps every row and masks the rows with an infinite upper bound with three-argument `jnp.where`, so the constraint matrix has a static shape."""
import jax
import jax.numpy as jnp


def standard_form(c, A, upper):
    finite = jnp.isfinite(upper)
    b_ub = jnp.where(finite, upper, 0.0)
    A_ub = jnp.where(finite[:, None], A, 0.0)
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
