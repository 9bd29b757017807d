"""Source: https://github.com/jax-ml/jax/issues/5208 (the answer: constants derived with Python or NumPy arithmetic stay concrete under `jax.jit`; only `jnp` operations are staged into the trace). Here the grid length is computed with Python `max`/`round` from the module constants, so `jnp.linspace` gets a static count."""
import jax
import jax.numpy as jnp

T0, TF, DT = 0.0, 1.0, 0.1


@jax.jit
def integrate_decay(y0, rate):
    num_steps = max(int(round(abs((TF - T0) / DT))), 1)
    ts = jnp.linspace(T0, TF, num_steps + 1)
    step = ts[1] - ts[0]

    def euler(y, _):
        y = y - step * rate * y
        return y, y

    _, path = jax.lax.scan(euler, y0, ts[1:])
    return path


# --- oracle ---
def ENTRY():
    return integrate_decay, (jnp.array([1.0, 2.0, 0.5]), jnp.array([0.5, 1.5, 3.0]))
