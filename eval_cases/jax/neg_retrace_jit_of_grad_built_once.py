"""Source: https://github.com/jax-ml/jax/issues/4572 (the fix: build the jitted gradient once, at module level, so every step hits the cache; row seq.jit_of_new_grad_per_call of xlacheck/data/jax_cache_key.json measures the per-call form)."""
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


grad_fn = jax.jit(jax.grad(loss))


def sgd_step(w, x, y, lr):
    g = grad_fn(w, x, y)
    return w - lr * g


# --- oracle ---
WRAP = False


def ENTRY():
    return sgd_step, (jnp.ones(3), jnp.eye(3), jnp.ones(3), 0.1)


def ALT_ARGS():
    return [(jnp.zeros(3), jnp.eye(3), jnp.ones(3), 0.1)]
