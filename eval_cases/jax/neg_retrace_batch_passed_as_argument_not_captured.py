"""Source: https://github.com/jax-ml/jax/issues/10596 (the fix given in the thread: pass the batch to the jitted gradient as a parameter instead of capturing it, so one compiled program serves every batch of the same shape)."""
import jax
import jax.numpy as jnp


def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


grad_fn = jax.jit(jax.grad(mse))


def train(w, batches, lr=0.1):
    for x, y in batches:
        w = w - lr * grad_fn(w, x, y)
    return w


# --- oracle ---
WRAP = False


def ENTRY():
    batches = [(jnp.ones((4, 3)), jnp.ones(4)), (jnp.ones((4, 3)) * 0.5, jnp.zeros(4))]
    return train, (jnp.zeros(3), batches)


def ALT_ARGS():
    batches = [(jnp.ones((4, 3)) * 2.0, jnp.ones(4))]
    return [(jnp.zeros(3), batches)]
