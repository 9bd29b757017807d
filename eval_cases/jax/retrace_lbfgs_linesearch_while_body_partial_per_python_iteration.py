"""Source: https://github.com/pasteurlabs/mosaic/pull/19 ("perf(lbfgs): jit the L-BFGS update+linesearch step": the L-BFGS loop was driven from Python around `solver.update`, whose zoom line search builds a fresh `functools.partial` body for its `jax.lax.while_loop` on every call; the while-loop trace cache keys on the body's identity, so every iteration re-traced and compiled the line search until memory ran out; the fix wraps the update in one `jax.jit`). Here a Python-driven quasi-Newton iteration runs a backtracking line search as an eager `lax.while_loop` whose body is a new `functools.partial` per iteration."""
import functools

import jax
import jax.numpy as jnp


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


value_and_grad = jax.jit(jax.value_and_grad(rosenbrock))


def _ls_body(state, x, direction, loss_fn):
    step, _ = state
    step = step * 0.5
    return step, loss_fn(x + step * direction)


def _ls_cond(state, f0, slope):
    step, f_new = state
    return (f_new > f0 + 1e-4 * step * slope) & (step > 1e-6)


def iteration(x, inv_hess_diag):
    f0, g = value_and_grad(x)
    direction = -inv_hess_diag * g
    slope = jnp.dot(g, direction)
    body = functools.partial(_ls_body, x=x, direction=direction, loss_fn=rosenbrock)  # XLA: retrace
    cond = functools.partial(_ls_cond, f0=f0, slope=slope)
    step, _ = jax.lax.while_loop(cond, body, (jnp.float32(2.0), jnp.float32(jnp.inf)))
    return x + step * direction, f0


# --- oracle ---
WRAP = False


def ENTRY():
    return iteration, (jnp.array([-1.0, 1.5, 0.5]), jnp.full((3,), 1e-3))


def ALT_ARGS():
    return [(jnp.array([-0.9, 1.4, 0.6]), jnp.full((3,), 1e-3)), (jnp.array([-0.8, 1.2, 0.7]), jnp.full((3,), 1e-3))]
