"""Source: https://github.com/jax-ml/jax/blob/main/jax/_src/errors.py (the tracer errors JAX documents, with their fixes), not rebuilt from one report: written for fixes20 (issue 11, the JAX fixer) with the fixer, as a variational step draws a number of Monte Carlo samples given as an argument inside its loss closure; the closure's sample shape reads the step's traced parameter."""
import jax
import jax.numpy as jnp


def elbo_step(params, key, x, num_samples):
    def loss_fn(p):
        eps = jax.random.normal(key, (num_samples, x.shape[-1]))  # XLA: shape
        z = p["mu"] + jnp.exp(p["log_sigma"]) * eps
        log_lik = -0.5 * jnp.sum((x[None, :] - z) ** 2, axis=-1)
        return -(jnp.mean(log_lik) - 0.5 * jnp.sum(p["mu"] ** 2))

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return loss, jax.tree_util.tree_map(lambda a, g: a - 0.1 * g, params, grads)


step = jax.jit(elbo_step)


# --- oracle ---
WRAP = False


def ENTRY():
    params = {"mu": jnp.zeros(3), "log_sigma": jnp.full(3, -1.0)}
    return step, (params, jax.random.PRNGKey(0), jnp.array([0.5, -0.2, 0.1]), 4)
