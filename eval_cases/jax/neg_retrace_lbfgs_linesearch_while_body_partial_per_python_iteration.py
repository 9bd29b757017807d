"""Source: https://github.com/pasteurlabs/mosaic/pull/19 ("perf(lbfgs): jit the L-BFGS update+linesearch step"; the merged fix wraps the update and its line search in a single `jax.jit`, so the `while_loop` body is traced once per shape instead of once per iteration). Here the same quasi-Newton iteration, line search included, is one jitted function created at import."""
import functools

import jax
import jax.numpy as jnp


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def _ls_body(state, x, direction, loss_fn):
    step, _ = state
    step = step * 0.5
    return step, loss_fn(x + step * direction)


def _ls_cond(state, f0, slope):
    step, f_new = state
    return (f_new > f0 + 1e-4 * step * slope) & (step > 1e-6)


@jax.jit
def iteration(x, inv_hess_diag):
    f0, g = jax.value_and_grad(rosenbrock)(x)
    direction = -inv_hess_diag * g
    slope = jnp.dot(g, direction)
    body = functools.partial(_ls_body, x=x, direction=direction, loss_fn=rosenbrock)
    cond = functools.partial(_ls_cond, f0=f0, slope=slope)
    step, _ = jax.lax.while_loop(cond, body, (jnp.float32(2.0), jnp.float32(jnp.inf)))
    return x + step * direction, f0


# --- oracle ---
WRAP = False


def ENTRY():
    return iteration, (jnp.array([-1.0, 1.5, 0.5]), jnp.full((3,), 1e-3))


def ALT_ARGS():
    return [(jnp.array([-0.9, 1.4, 0.6]), jnp.full((3,), 1e-3)), (jnp.array([-0.8, 1.2, 0.7]), jnp.full((3,), 1e-3))]
