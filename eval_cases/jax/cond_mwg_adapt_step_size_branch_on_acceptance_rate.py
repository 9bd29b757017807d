"""Source: https://github.com/mlysy/pfjax/issues/3 ("Not to use Boolean in mwg_adapt": the Metropolis-within-Gibbs adaptation compared the traced acceptance rate with the target rate in Python to decide whether to shrink or grow the random-walk scale, which fails under `jit` with a traced-boolean error; the suggested fix uses `jnp.sign(targ_acc - accept_rate)`). Here a jitted adaptive random-walk Metropolis step updates its proposal scale with a Python `if` on the running acceptance rate."""
import jax
import jax.numpy as jnp


def log_target(x):
    return -0.5 * jnp.sum(x ** 2 / jnp.array([1.0, 4.0]))


def adapt_scale(rw_sd, accept_rate, n_iter, targ_acc=0.44):
    delta = jnp.minimum(0.01, 1.0 / jnp.sqrt(n_iter))
    if accept_rate < targ_acc:  # XLA: cond
        return rw_sd * jnp.exp(-delta)
    return rw_sd * jnp.exp(delta)


@jax.jit
def mwg_step(key, x, rw_sd, n_accept, n_iter):
    proposal = x + rw_sd * jax.random.normal(key, x.shape)
    accept = jnp.log(jax.random.uniform(key)) < log_target(proposal) - log_target(x)
    x = jnp.where(accept, proposal, x)
    n_accept = n_accept + accept
    rw_sd = adapt_scale(rw_sd, n_accept / n_iter, n_iter)
    return x, rw_sd, n_accept


# --- oracle ---
COMPARE = False


def ENTRY():
    return mwg_step, (jax.random.PRNGKey(0), jnp.zeros(2), jnp.ones(2), 3.0, 10.0)
