"""Source: https://github.com/jax-ml/jax/issues/22045 ("scan of device_put carry raises TypeError during the backward pass": with jax 0.4.30, `ix = jax.device_put((0, x))` as the carry of `lax.scan` made `jax.grad` fail with `body_fun output and input must have identical types`, an int counter's float0 tangent against its primal type). Here a leaky integrator's loss scans a carry of (step counter, state) placed with `jax.device_put` and is differentiated. It does not reproduce on jax 0.10.2: the gradient compiles and matches eager."""
import jax
import jax.numpy as jnp


def integrate(carry, drive):
    step, v = carry
    v = 0.9 * v + drive * jnp.exp(-0.01 * step)
    return (step + 1, v), v


def trace_loss(v0, drives, target):
    carry = jax.device_put((0, v0))
    _, vs = jax.lax.scan(integrate, carry, drives)
    return jnp.mean((vs - target) ** 2)


loss_grad = jax.grad(trace_loss)


# --- oracle ---
def ENTRY():
    return loss_grad, (jnp.float32(0.5), jnp.linspace(0.0, 1.0, 10), jnp.full(10, 0.3))
