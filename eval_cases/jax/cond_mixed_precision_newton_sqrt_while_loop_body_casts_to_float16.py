"""Source: https://github.com/jax-ml/jax/issues/1681 ("Missing type checking for `lax.while_loop`": a `while_loop` whose body returns `u.astype(np.float16)` for a float32 carry; JAX now rejects it with "body_fun output and input must have identical types"). Here a jitted layer-norm computes its reciprocal square root with a Newton `while_loop` whose body drops to float16 to save bandwidth and returns the half-precision iterate as the carry."""
import jax
import jax.numpy as jnp
from jax import lax


def rsqrt_newton(v, n_iter=6):
    def cond(state):
        i, _ = state
        return i < n_iter

    def body(state):
        i, y = state
        y16 = y.astype(jnp.float16)
        v16 = v.astype(jnp.float16)
        y16 = y16 * (1.5 - 0.5 * v16 * y16 * y16)
        return i + 1, y16  # XLA: cond

    _, y = lax.while_loop(cond, body, (0, jnp.ones_like(v)))
    return y


@jax.jit
def layer_norm(x):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True) + 1e-5
    return (x - mu) * rsqrt_newton(var)


# --- oracle ---
def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 24, dtype=jnp.float32).reshape(3, 8)
    return layer_norm, (x,)
