"""Source: https://github.com/jax-ml/jax/issues/1879 (the working set-up: the batch size is a static argument of the jitted epoch, so the `dynamic_slice` size is a Python int while only the start offset is traced). Here the jitted epoch of matrix-factorisation SGD marks `batch_size` static."""
import functools

import jax
import jax.numpy as jnp


def sgd_step(params, users, items, ratings, lr=0.05):
    def loss(p):
        pred = jnp.sum(p["U"][users] * p["V"][items], axis=-1)
        return jnp.mean((pred - ratings) ** 2)
    grads = jax.grad(loss)(params)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


@functools.partial(jax.jit, static_argnames=("batch_size",))
def train_epoch(params, users, items, ratings, batch_size):
    n_batches = users.shape[0] // batch_size

    def body(i, p):
        start = i * batch_size
        u = jax.lax.dynamic_slice(users, (start,), (batch_size,))
        it = jax.lax.dynamic_slice(items, (start,), (batch_size,))
        r = jax.lax.dynamic_slice(ratings, (start,), (batch_size,))
        return sgd_step(p, u, it, r)

    return jax.lax.fori_loop(0, n_batches, body, params)


# --- oracle ---
def ENTRY():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    params = {"U": 0.1 * jax.random.normal(k1, (5, 3)), "V": 0.1 * jax.random.normal(k2, (4, 3))}
    users = jnp.array([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0])
    items = jnp.array([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3])
    ratings = jnp.linspace(1.0, 5.0, 16)
    return (lambda p, u, i, r: train_epoch(p, u, i, r, batch_size=4)), (params, users, items, ratings)
