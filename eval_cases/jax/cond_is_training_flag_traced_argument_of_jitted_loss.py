"""Source: https://github.com/google-deepmind/dm-haiku/issues/187 ("Jit compiler for is_training arguments": a network took `is_training` and applied dropout under `if is_training:`; with the flag passed to the jitted loss as an ordinary argument it is a tracer and the Python `if` fails, so it has to be marked with `static_argnums`). Here a small regression network with dropout branches on `is_training` inside `__call__`, and the jitted loss receives the flag as a traced argument."""
import jax
import jax.numpy as jnp


class Net:
    def __init__(self, key, d_in=4, d_hidden=16):
        k1, k2 = jax.random.split(key)
        self.params = {"w1": jax.random.normal(k1, (d_in, d_hidden)) * 0.3,
                       "w2": jax.random.normal(k2, (d_hidden, 1)) * 0.3}

    def __call__(self, params, x, is_training, rng):
        h = jax.nn.relu(x @ params["w1"])
        if is_training:  # XLA: cond
            keep = jax.random.bernoulli(rng, 0.9, h.shape)
            h = jnp.where(keep, h / 0.9, 0.0)
        return (h @ params["w2"])[:, 0]


net = Net(jax.random.PRNGKey(0))


@jax.jit
def model_loss(params, rng, target, x, is_training):
    pred = net(params, x, is_training, rng)
    return jnp.mean((pred - target) ** 2)


# --- oracle ---
COMPARE = False


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(6, 4)
    return model_loss, (net.params, jax.random.PRNGKey(1), jnp.sum(x, axis=1), x, True)
