"""Source: https://github.com/jax-ml/jax/issues/14216 (the answer in the thread: the dtype of an array is static, so choose the Jacobian with a Python `if jnp.iscomplexobj(x)` at trace time rather than a `lax.cond`, which traces both branches). Here the jitted sensitivity analysis dispatches on the parameters' dtype with a Python `if`."""
import jax
import jax.numpy as jnp


def response(z):
    return z ** 2 + 0.5 * z ** 3


@jax.jit
def sensitivity(params):
    if jnp.iscomplexobj(params):
        jac = jax.jacfwd(response, holomorphic=True)(params)
    else:
        jac = jax.jacfwd(response)(params)
    return jnp.diag(jac)


# --- oracle ---
def ENTRY():
    return sensitivity, (jnp.array([0.5, 1.0, -0.25]),)
