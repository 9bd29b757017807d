"""Source: https://github.com/dfm/tinygp/issues/85 ("[bug] JaxArrays and predictions with non-default X_test parameter": the quasiseparable kernel's `to_general_qsm` shifted the test inputs with `np.append(x[0], x[:-1])` inside `jax.tree_util.tree_map`, and when `condition` was jitted with an `X_test` the NumPy call received a tracer: TracerArrayConversionError). Here a Celerite-style exponential kernel predicts a light curve at new times inside a jitted conditioning step."""
import jax
import jax.numpy as jnp
import numpy as np


def transition(t, t_prev, scale):
    return jnp.exp(-jnp.abs(t - t_prev) / scale)


def to_general_qsm(X1, X2, scale):
    shifted = jax.tree_util.tree_map(lambda x: np.append(x[0], x[:-1]), X2)  # XLA: host
    p = transition(X2, shifted, scale)
    return jnp.exp(-jnp.abs(X1[:, None] - X2[None, :]) / scale) * jnp.sqrt(p)[None, :]


@jax.jit
def condition(t_train, y_train, t_test, scale, noise):
    k_tt = jnp.exp(-jnp.abs(t_train[:, None] - t_train[None, :]) / scale) + noise * jnp.eye(t_train.shape[0])
    alpha = jnp.linalg.solve(k_tt, y_train)
    k_st = to_general_qsm(t_train, t_test, scale)
    return alpha @ k_st


# --- oracle ---
def ENTRY():
    t_train = jnp.linspace(0.0, 10.0, 12)
    y_train = jnp.sin(t_train)
    t_test = jnp.linspace(0.5, 9.5, 7)
    return condition, (t_train, y_train, t_test, 2.0, 0.1)
