"""Source: https://github.com/PlasmaControl/DESC/issues/1781 ("Set default values as their final type for less compilation": the trust-region subproblem solvers pass `alpha=None` first and a float afterwards, so the jitted solver compiles once for `None` and again for the number). Here a Levenberg-Marquardt fit passes the damping of the previous iteration, `None` on the first one."""
import jax
import jax.numpy as jnp


@jax.jit
def lm_step(x, jac, residual, alpha):
    if alpha is None:
        alpha = 1e-3 * jnp.max(jnp.diag(jac.T @ jac))
    hess = jac.T @ jac + alpha * jnp.eye(x.shape[0])
    dx = jnp.linalg.solve(hess, jac.T @ residual)
    return x - dx, alpha * 0.5


def model(x, t):
    return x[0] * jnp.exp(-x[1] * t)


def fit(x, t, y, iters=5):
    alpha = None
    for _ in range(iters):
        residual = model(x, t) - y
        jac = jax.jacfwd(model)(x, t)
        x, alpha = lm_step(x, jac, residual, alpha)  # XLA: retrace
    return x


# --- oracle ---
def ENTRY():
    t = jnp.linspace(0.0, 2.0, 8)
    jac = jax.jacfwd(model)(jnp.array([1.0, 0.5]), t)
    return lm_step, (jnp.array([1.0, 0.5]), jac, jnp.full(8, 0.1), None)


def ALT_ARGS():
    t = jnp.linspace(0.0, 2.0, 8)
    jac = jax.jacfwd(model)(jnp.array([0.9, 0.6]), t)
    return [(jnp.array([0.9, 0.6]), jac, jnp.full(8, 0.05), jnp.float32(5e-4))]
