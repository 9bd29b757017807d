"""Source: https://github.com/google/jaxopt/pull/113 (the fix: the loop body and condition no longer are new closures per `run`; the run arguments travel through the loop state, so `lax.while_loop` sees the same functions on every call and reuses its trace and executable). Here the solver's body and condition are module-level functions and the data ride in the carry."""
import jax
import jax.numpy as jnp

STEPSIZE, MAXITER, TOL = 0.1, 50, 1e-5


def ridge_objective(w, X, y, lam):
    return 0.5 * jnp.mean((X @ w - y) ** 2) + 0.5 * lam * jnp.sum(w ** 2)


_grad = jax.grad(ridge_objective)


def _cond_fun(state):
    _, err, it, _ = state
    return (err > TOL) & (it < MAXITER)


def _body_fun(state):
    w, _, it, data = state
    g = _grad(w, *data)
    return w - STEPSIZE * g, jnp.linalg.norm(g), it + 1, data


class GradientDescent:
    def run(self, init_params, X, y, lam):
        state = (init_params, jnp.float32(jnp.inf), jnp.int32(0), (X, y, jnp.float32(lam)))
        w, _, _, _ = jax.lax.while_loop(_cond_fun, _body_fun, state)
        return w


solver = GradientDescent()


def _problem(seed):
    X = jax.random.normal(jax.random.PRNGKey(seed), (12, 3))
    return jnp.zeros(3), X, X @ jnp.array([1.0, -2.0, 0.5]), 0.01


# --- oracle ---
WRAP = False


def ENTRY():
    return solver.run, _problem(0)


def ALT_ARGS():
    return [_problem(1), _problem(2)]
