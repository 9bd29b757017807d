"""Source: https://github.com/patrick-kidger/diffrax/issues/111 ("Unintuitive recompile in the Latent ODE example": the dataset size is not a multiple of the batch size, so the last batch of the epoch is smaller and the jitted step compiles again for its shape)."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def make_step(params, xs, ys):
    def loss(p):
        return jnp.mean((xs @ p - ys) ** 2)
    return params - 0.05 * jax.grad(loss)(params)


def train_epoch(params, xs, ys, batch_size=4):
    for start in range(0, len(xs), batch_size):
        params = make_step(params, xs[start:start + batch_size], ys[start:start + batch_size])  # XLA: retrace
    return params


# --- oracle ---
WRAP = False


def ENTRY():
    xs = np.linspace(0.0, 1.0, 30, dtype=np.float32).reshape(10, 3)
    return train_epoch, (jnp.zeros(3), xs, xs.sum(1))


def ALT_ARGS():
    xs = np.linspace(0.0, 1.0, 33, dtype=np.float32).reshape(11, 3)
    return [(jnp.zeros(3), xs, xs.sum(1))]
