"""Source: https://github.com/jax-ml/jax/issues/14216 ("`lax.cond` failing with `jacfwd` that depend on type": a jitted function chose between `jax.jacfwd(f, holomorphic=True)` and `jax.jacfwd(f)` with `lax.cond(jnp.iscomplex(flat)[0], ...)`; it failed for every input, with "jacfwd with holomorphic=True requires inputs with complex dtype", because `lax.cond` traces both branches with the operand's real dtype). Here a jitted sensitivity analysis of a circuit response picks the holomorphic or the real Jacobian with a `lax.cond` on the parameters' values."""
import jax
import jax.numpy as jnp


def response(z):
    return z ** 2 + 0.5 * z ** 3


@jax.jit
def sensitivity(params):
    jac = jax.lax.cond(  # XLA: cond
        jnp.iscomplex(params)[0],
        jax.jacfwd(response, holomorphic=True),
        jax.jacfwd(response),
        params,
    )
    return jnp.diag(jac)


# --- oracle ---
def ENTRY():
    return sensitivity, (jnp.array([0.5, 1.0, -0.25]),)
