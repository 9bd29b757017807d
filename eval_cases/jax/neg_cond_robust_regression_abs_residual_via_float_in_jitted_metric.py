"""Source: https://github.com/jax-ml/jax/issues/2783 ("float(x) does not work if x is a concrete tracer, but int(x) works": `float` on a tracer is an error by design; the sign test has to stay an array operation). Near miss: the jitted validation metric writes the absolute residual with `jnp.where(r >= 0, r, -r)`."""
import jax
import jax.numpy as jnp


def abs_residual(r):
    return jnp.where(r >= 0.0, r, -r)


def l1_loss(w, x, y):
    residuals = x @ w - y
    return sum(abs_residual(residuals[i]) for i in range(residuals.shape[0]))


@jax.jit
def validation_l1(w, x, y):
    return l1_loss(w, x, y) / x.shape[0]


# --- oracle ---
def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    y = jnp.array([0.3, -0.2, 0.5, 0.1, -0.4, 0.25])
    return validation_l1, (jnp.array([0.2, -0.1]), x, y)
