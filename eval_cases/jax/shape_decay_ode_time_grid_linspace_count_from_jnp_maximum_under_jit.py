"""Source: https://github.com/jax-ml/jax/issues/5208 ("Unexpected JIT error for operations on static arguments": inside a jitted function, `num_steps = jnp.maximum(jnp.abs((tf - t0) / dt), 1)` followed by `jnp.linspace(t0, tf, num_steps + 1)` raises ConcretizationTypeError, although every input is a Python constant, because the `jnp` operations stage the count into the trace; computing it with Python/NumPy keeps it static). Here a first-order decay ODE is integrated on a time grid whose length is computed with `jnp` inside the jitted solver."""
import jax
import jax.numpy as jnp

T0, TF, DT = 0.0, 1.0, 0.1


@jax.jit
def integrate_decay(y0, rate):
    num_steps = jnp.maximum(jnp.abs((TF - T0) / DT), 1).astype(int)
    ts = jnp.linspace(T0, TF, num_steps + 1)  # XLA: shape
    step = ts[1] - ts[0]

    def euler(y, _):
        y = y - step * rate * y
        return y, y

    _, path = jax.lax.scan(euler, y0, ts[1:])
    return path


# --- oracle ---
def ENTRY():
    return integrate_decay, (jnp.array([1.0, 2.0, 0.5]), jnp.array([0.5, 1.5, 3.0]))
