"""Source: https://github.com/wesselb/stheno/issues/21 ("Unable to jit logpdf": `jax.jit(jax.grad(loss_fn))` of a GP log-likelihood fails because `logpdf` handles missing data with `available = B.jit_to_numpy(~B.isnan(x[:, 0]))`, a NumPy conversion of a traced mask). Here a GP marginal likelihood drops NaN observations through a NumPy mask inside the jitted gradient."""
import jax
import jax.numpy as jnp
import numpy as np


def eq_kernel(x1, x2, lengthscale):
    d = (x1[:, None] - x2[None, :]) / lengthscale
    return jnp.exp(-0.5 * d ** 2)


def gp_logpdf(lengthscale, x, y, noise=0.1):
    available = np.asarray(~jnp.isnan(y))  # XLA: host
    x, y = x[available], y[available]
    k = eq_kernel(x, x, lengthscale) + noise * jnp.eye(x.shape[0])
    chol = jnp.linalg.cholesky(k)
    alpha = jax.scipy.linalg.cho_solve((chol, True), y)
    return -0.5 * y @ alpha - jnp.sum(jnp.log(jnp.diag(chol))) - 0.5 * y.shape[0] * jnp.log(2.0 * jnp.pi)


grad_fn = jax.jit(jax.grad(lambda ls, x, y: -gp_logpdf(ls, x, y)))


# --- oracle ---
def ENTRY():
    x = jnp.linspace(0.0, 5.0, 10)
    y = jnp.sin(x).at[3].set(jnp.nan)
    return grad_fn, (jnp.float32(1.0), x, y)
