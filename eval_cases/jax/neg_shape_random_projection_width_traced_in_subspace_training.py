"""Source: https://github.com/probml/pyprobml/pull/647 ("create: `subspace_mlp_demo.py`": asked to `vmap`/`jit` the sweep over subspace dimensions, the author explains that the subspace size `d` becomes a traced value and `jax.random.normal(key, shape=(D, d))` raises "Shapes must be 1D sequences of concrete values of integer type"; the sweep keeps one compilation per dimension). Near miss / fix: the subspace dimension is a static argument (`static_argnums`), one compilation per dimension of the sweep, as the PR settled on. Here intrinsic-dimension training of a small classifier jits the training run with the subspace dimension as an ordinary argument."""
from functools import partial

import jax
import jax.numpy as jnp


def flat_init(key, n_in, n_hidden, n_out):
    k1, k2 = jax.random.split(key)
    w1 = jax.random.normal(k1, (n_in, n_hidden)) * 0.1
    w2 = jax.random.normal(k2, (n_hidden, n_out)) * 0.1
    return jnp.concatenate([w1.ravel(), w2.ravel()])


def unflatten(flat, n_in, n_hidden, n_out):
    w1 = flat[: n_in * n_hidden].reshape(n_in, n_hidden)
    w2 = flat[n_in * n_hidden:].reshape(n_hidden, n_out)
    return w1, w2


def loss_fn(theta_sub, theta_0, projection, x, y):
    w1, w2 = unflatten(theta_0 + projection @ theta_sub, x.shape[1], 8, 3)
    logits = jnp.tanh(x @ w1) @ w2
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 3), axis=-1))


@partial(jax.jit, static_argnums=1)
def subspace_learning(key, subspace_dim, x, y):
    init_key, proj_key = jax.random.split(key)
    theta_0 = flat_init(init_key, x.shape[1], 8, 3)
    full_dim = theta_0.shape[0]
    projection = jax.random.normal(proj_key, shape=(full_dim, subspace_dim)) / full_dim
    theta_sub = jnp.zeros(projection.shape[1])
    for _ in range(20):
        theta_sub = theta_sub - 0.5 * jax.grad(loss_fn)(theta_sub, theta_0, projection, x, y)
    return loss_fn(theta_sub, theta_0, projection, x, y)


def sweep(key, x, y, subspace_dims=(2, 10, 60)):
    return jnp.stack([subspace_learning(key, d, x, y) for d in subspace_dims])


# --- oracle ---
WRAP = False


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 24 * 4).reshape(24, 4)
    y = jnp.arange(24) % 3
    return sweep, (jax.random.PRNGKey(314), x, y)
