"""Source: https://github.com/jax-ml/jax/issues/1629 ("How to use jit with jax.numpy.reshape?": a spatial unmixing functional reshaped its flat abundance matrix with `np.reshape(X, (r, m, n), order='F')`, where the image sizes `m, n` were arguments of the jitted gradient; under `jit` they are tracers and the reshape fails with "'JaxprTracer' object cannot be interpreted as an integer"). Here the jitted gradient of a total-variation unmixing objective receives the image height and width as ordinary arguments and reshapes with them."""
import jax
import jax.numpy as jnp


def functional(x, y, endmembers, m, n, lam):
    r = x.shape[0]
    x_img = jnp.reshape(x, (r, m, n))  # XLA: shape
    fit = jnp.sum((endmembers @ x - y) ** 2)
    tv = jnp.sum(jnp.abs(jnp.diff(x_img, axis=1))) + jnp.sum(jnp.abs(jnp.diff(x_img, axis=2)))
    return fit + lam * tv


@jax.jit
def unmixing_gradient(x, y, endmembers, m, n, lam):
    return jax.grad(functional)(x, y, endmembers, m, n, lam)


# --- oracle ---
def ENTRY():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    x = jax.nn.softmax(jax.random.normal(k1, (3, 12)), axis=0)
    endmembers = jax.random.uniform(k2, (5, 3))
    y = endmembers @ x + 0.01 * jax.random.normal(k3, (5, 12))
    return unmixing_gradient, (x, y, endmembers, 3, 4, 0.1)
