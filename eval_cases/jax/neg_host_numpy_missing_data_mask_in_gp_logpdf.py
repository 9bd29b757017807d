"""Source: https://github.com/wesselb/stheno/issues/21 (a jit-compatible way to handle the missing data: keep every row and make the missing ones independent, with a large noise and a zero residual, so no mask has to become concrete; originally: "Unable to jit logpdf": `jax.jit(jax.grad(loss_fn))` of a GP log-likelihood fails because `logpdf` handles missing data with `available = B.jit_to_numpy(~B.isnan(x[:, 0]))`, a NumPy conversion of a traced mask). Here the NaN observations are masked with `jnp.where` instead of being dropped."""
import jax
import jax.numpy as jnp


def eq_kernel(x1, x2, lengthscale):
    d = (x1[:, None] - x2[None, :]) / lengthscale
    return jnp.exp(-0.5 * d ** 2)


def gp_logpdf(lengthscale, x, y, noise=0.1):
    available = ~jnp.isnan(y)
    y = jnp.where(available, y, 0.0)
    k = eq_kernel(x, x, lengthscale) * (available[:, None] & available[None, :])
    k = k + jnp.diag(jnp.where(available, noise, 1.0))
    chol = jnp.linalg.cholesky(k)
    alpha = jax.scipy.linalg.cho_solve((chol, True), y)
    return -0.5 * y @ alpha - jnp.sum(jnp.log(jnp.diag(chol))) - 0.5 * jnp.sum(available) * jnp.log(2.0 * jnp.pi)


grad_fn = jax.jit(jax.grad(lambda ls, x, y: -gp_logpdf(ls, x, y)))


# --- oracle ---
def ENTRY():
    x = jnp.linspace(0.0, 5.0, 10)
    y = jnp.sin(x).at[3].set(jnp.nan)
    return grad_fn, (jnp.float32(1.0), x, y)
