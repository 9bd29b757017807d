"""Source: https://github.com/jax-ml/jax/issues/2783 ("float(x) does not work if x is a concrete tracer, but int(x) works": `x if float(x) >= 0. else -x` fails under `grad` with "JAX Tracer object cannot be interpreted as a float"; `float` on a tracer is an error by design, see jax PR #2602). Here the jitted validation metric of a robust (L1) regression sums absolute residuals, where the absolute value is written with `float(r) >= 0` on each scalar residual; under `jit` the residual is a tracer just as under `grad`."""
import jax
import jax.numpy as jnp


def abs_residual(r):
    return r if float(r) >= 0.0 else -r  # XLA: cond


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
