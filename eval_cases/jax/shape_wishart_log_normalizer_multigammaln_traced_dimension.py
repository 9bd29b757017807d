"""Source: https://github.com/jax-ml/jax/issues/5073 ("jax.scipy.special.multigammaln fails under jit": `multigammaln(a, d)` builds `jnp.arange(d)`, so a traced `d` raises ConcretizationTypeError; `d` must be static). Here a jitted Wishart log-density takes the matrix dimension as an ordinary argument and passes it to `multigammaln`."""
import jax
import jax.numpy as jnp
from jax.scipy.special import multigammaln


def wishart_log_normalizer(dof, scale, dim):
    _, logdet = jnp.linalg.slogdet(scale)
    return (0.5 * dof * dim * jnp.log(2.0) + 0.5 * dof * logdet
            + multigammaln(0.5 * dof, dim))  # XLA: shape


@jax.jit
def wishart_logpdf(x, dof, scale, dim):
    _, logdet_x = jnp.linalg.slogdet(x)
    trace_term = jnp.trace(jnp.linalg.solve(scale, x))
    return 0.5 * (dof - dim - 1) * logdet_x - 0.5 * trace_term - wishart_log_normalizer(dof, scale, dim)


# --- oracle ---
def ENTRY():
    x = jnp.array([[2.0, 0.3, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 1.0]])
    return wishart_logpdf, (x, 5.0, jnp.eye(3), 3)
