"""Source: https://github.com/google/flax/issues/4085 ("Dropout seems not compatible with jax.jit": the `training` flag is passed as an ordinary argument of the jitted train step, so `deterministic=not training` evaluates a traced boolean)."""
import jax
import jax.numpy as jnp


def dropout(x, rate, training, key):
    if not training:  # XLA: cond
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def mlp(params, x, training, key):
    h = jax.nn.relu(x @ params["w1"])
    h = dropout(h, 0.5, training, key)
    return h @ params["w2"]


@jax.jit
def mse(params, x, y, training):
    pred = mlp(params, x, training, jax.random.PRNGKey(114))
    return jnp.mean((pred - y) ** 2)


# --- oracle ---
def ENTRY():
    params = {"w1": jnp.ones((3, 4)) * 0.2, "w2": jnp.ones((4, 1)) * 0.3}
    return mse, (params, jnp.arange(6.0).reshape(2, 3), jnp.ones((2, 1)), False)
