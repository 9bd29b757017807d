"""Source: https://github.com/awslabs/fortuna/pull/57 ("Bug fix in ADVI sample": the ADVI posterior's `sample` method raised `UnexpectedTracerError` because a value computed inside a traced function was saved to Python state and read back by another compiled call; the fix stops saving intermediate values outside the transformed function). Here a mean-field variational posterior fits with a jitted step that also records the current mean on the object, and a jitted sampler draws from that recorded mean."""
import jax
import jax.numpy as jnp


class MeanFieldPosterior:
    def __init__(self, dim):
        self.dim = dim
        self.mean = jnp.zeros((dim,))

    def log_lik(self, w, x, y):
        return -0.5 * jnp.sum((x @ w - y) ** 2)

    def fit_step(self, params, key, x, y, lr=0.05):
        def neg_elbo(p):
            eps = jax.random.normal(key, (self.dim,))
            w = p["mu"] + jnp.exp(p["log_sigma"]) * eps
            return -self.log_lik(w, x, y) - jnp.sum(p["log_sigma"])

        loss, grads = jax.value_and_grad(neg_elbo)(params)
        params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
        self.mean = params["mu"]  # XLA: host
        return params, loss

    def sample(self, key, log_sigma, n=4):
        eps = jax.random.normal(key, (n, self.dim))
        return self.mean + jnp.exp(log_sigma) * eps


posterior = MeanFieldPosterior(3)
fit_step = jax.jit(posterior.fit_step)
sample = jax.jit(posterior.sample)


def fit_and_sample(params, key, x, y):
    params, loss = fit_step(params, key, x, y)
    draws = sample(jax.random.fold_in(key, 1), params["log_sigma"])
    return loss, draws


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    params = {"mu": jnp.zeros((3,)), "log_sigma": jnp.full((3,), -1.0)}
    x = jnp.array([[1.0, 0.0, 0.5], [0.2, 1.0, 0.0], [0.0, 0.3, 1.0], [1.0, 1.0, 1.0]])
    y = jnp.array([1.0, 0.5, -0.2, 1.1])
    return fit_and_sample, (params, jax.random.PRNGKey(0), x, y)
