"""Source: https://github.com/jax-ml/jax/issues/10596 (a jitted function that captures an array bakes it into the program as a constant; re-jitting a loss closure over each new batch therefore compiles every step. The answer: pass the value as a parameter)."""
import jax
import jax.numpy as jnp


def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train(w, batches, lr=0.1):
    for x, y in batches:
        grad_fn = jax.jit(jax.grad(lambda p: mse(p, x, y)))  # XLA: retrace
        w = w - lr * grad_fn(w)
    return w


# --- oracle ---
WRAP = False


def ENTRY():
    batches = [(jnp.ones((4, 3)), jnp.ones(4)), (jnp.ones((4, 3)) * 0.5, jnp.zeros(4))]
    return train, (jnp.zeros(3), batches)


def ALT_ARGS():
    batches = [(jnp.ones((4, 3)) * 2.0, jnp.ones(4))]
    return [(jnp.zeros(3), batches)]
