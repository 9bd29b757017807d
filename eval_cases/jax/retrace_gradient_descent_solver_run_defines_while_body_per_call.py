"""Source: https://github.com/google/jaxopt/pull/113 ("Prevent recompilation of loops in `solver.run` if executing without jit": `IterativeSolver._run` defined `cond_fun` and `body_fun` inside the method, so every un-jitted `run` call handed `lax.while_loop` new closures and the loop was traced and compiled again; the fix made them methods that receive the run arguments explicitly). Here a small gradient-descent solver builds its loop body and condition inside `run`, which the user calls once per problem without `jit`."""
import jax
import jax.numpy as jnp


def ridge_objective(w, X, y, lam):
    return 0.5 * jnp.mean((X @ w - y) ** 2) + 0.5 * lam * jnp.sum(w ** 2)


class GradientDescent:
    def __init__(self, fun, stepsize=0.1, maxiter=50, tol=1e-5):
        self.fun, self.stepsize, self.maxiter, self.tol = fun, stepsize, maxiter, tol

    def run(self, init_params, X, y, lam):
        grad_fun = jax.grad(self.fun)

        def cond_fun(state):
            _, err, it = state
            return (err > self.tol) & (it < self.maxiter)

        def body_fun(state):
            w, _, it = state
            g = grad_fun(w, X, y, lam)
            return w - self.stepsize * g, jnp.linalg.norm(g), it + 1

        state = (init_params, jnp.float32(jnp.inf), jnp.int32(0))
        w, _, _ = jax.lax.while_loop(cond_fun, body_fun, state)  # XLA: retrace
        return w


solver = GradientDescent(ridge_objective)


def _problem(seed):
    X = jax.random.normal(jax.random.PRNGKey(seed), (12, 3))
    return jnp.zeros(3), X, X @ jnp.array([1.0, -2.0, 0.5]), 0.01


# --- oracle ---
WRAP = False


def ENTRY():
    return solver.run, _problem(0)


def ALT_ARGS():
    return [_problem(1), _problem(2)]
