"""Source: https://github.com/jax-ml/jax/issues/4572 (a jitted helper rebuilt inside the function called every step is traced and compiled on every call; here `jax.jit(jax.grad(loss))`, a new function object per call even for a module-level loss, measured by row seq.jit_of_new_grad_per_call of xlacheck/data/jax_cache_key.json: 3 calls, 3 compiles)."""
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def sgd_step(w, x, y, lr):
    g = jax.jit(jax.grad(loss))(w, x, y)  # XLA: retrace
    return w - lr * g


# --- oracle ---
WRAP = False


def ENTRY():
    return sgd_step, (jnp.ones(3), jnp.eye(3), jnp.ones(3), 0.1)


def ALT_ARGS():
    return [(jnp.zeros(3), jnp.eye(3), jnp.ones(3), 0.1)]
