"""Source: https://github.com/jax-ml/jax/issues/5073 (the documented way: `d` of `multigammaln` must be known statically). Here the jitted Wishart log-density reads the dimension from the static `.shape` of the scale matrix instead of taking it as a traced argument."""
import jax
import jax.numpy as jnp
from jax.scipy.special import multigammaln


def wishart_log_normalizer(dof, scale):
    dim = scale.shape[0]
    _, logdet = jnp.linalg.slogdet(scale)
    return 0.5 * dof * dim * jnp.log(2.0) + 0.5 * dof * logdet + multigammaln(0.5 * dof, dim)


@jax.jit
def wishart_logpdf(x, dof, scale):
    dim = x.shape[0]
    _, logdet_x = jnp.linalg.slogdet(x)
    trace_term = jnp.trace(jnp.linalg.solve(scale, x))
    return 0.5 * (dof - dim - 1) * logdet_x - 0.5 * trace_term - wishart_log_normalizer(dof, scale)


# --- oracle ---
def ENTRY():
    x = jnp.array([[2.0, 0.3, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 1.0]])
    return wishart_logpdf, (x, 5.0, jnp.eye(3))
