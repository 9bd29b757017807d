"""Source: https://github.com/jax-ml/jax/issues/1629 ("How to use jit with jax.numpy.reshape?"; the fix: the image sizes that decide the reshape are marked static with `static_argnums`, so they stay Python ints while the abundances are traced). Here the same jitted unmixing gradient declares `m` and `n` static."""
import functools

import jax
import jax.numpy as jnp


def functional(x, y, endmembers, m, n, lam):
    r = x.shape[0]
    x_img = jnp.reshape(x, (r, m, n))
    fit = jnp.sum((endmembers @ x - y) ** 2)
    tv = jnp.sum(jnp.abs(jnp.diff(x_img, axis=1))) + jnp.sum(jnp.abs(jnp.diff(x_img, axis=2)))
    return fit + lam * tv


@functools.partial(jax.jit, static_argnums=(3, 4))
def unmixing_gradient(x, y, endmembers, m, n, lam):
    return jax.grad(functional)(x, y, endmembers, m, n, lam)


# --- oracle ---
def ENTRY():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    x = jax.nn.softmax(jax.random.normal(k1, (3, 12)), axis=0)
    endmembers = jax.random.uniform(k2, (5, 3))
    y = endmembers @ x + 0.01 * jax.random.normal(k3, (5, 12))
    return unmixing_gradient, (x, y, endmembers, 3, 4, 0.1)
