"""Source: https://github.com/patrick-kidger/diffrax/issues/111 (the fix for a recompile on the last, smaller batch of an epoch: iterate over whole batches only, so every call of the jitted step sees the same shape)."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def make_step(params, xs, ys):
    def loss(p):
        return jnp.mean((xs @ p - ys) ** 2)
    return params - 0.05 * jax.grad(loss)(params)


def train_epoch(params, xs, ys, batch_size=4):
    for i in range(len(xs) // batch_size):
        batch = slice(i * batch_size, (i + 1) * batch_size)
        params = make_step(params, xs[batch], ys[batch])
    return params


# --- oracle ---
WRAP = False


def ENTRY():
    xs = np.linspace(0.0, 1.0, 30, dtype=np.float32).reshape(10, 3)
    return train_epoch, (jnp.zeros(3), xs, xs.sum(1))


def ALT_ARGS():
    xs = np.linspace(0.0, 1.0, 33, dtype=np.float32).reshape(11, 3)
    return [(jnp.zeros(3), xs, xs.sum(1))]
