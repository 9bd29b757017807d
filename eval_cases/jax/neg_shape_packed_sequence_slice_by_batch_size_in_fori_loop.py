"""Source: https://github.com/jax-ml/jax/issues/2323 (slicing a packed sequence by a per-step batch size inside `fori_loop` needs a traced slice size, which XLA cannot compile). Here the sequences are kept padded, time-major, with a mask per step: each step updates every row and keeps the old state where the row has ended, so all shapes are static."""
import jax
import jax.numpy as jnp
from jax import lax


def gru_cell(params, h, x):
    z = jax.nn.sigmoid(x @ params["wz"] + h @ params["uz"])
    r = jax.nn.sigmoid(x @ params["wr"] + h @ params["ur"])
    n = jnp.tanh(x @ params["wn"] + (r * h) @ params["un"])
    return (1 - z) * n + z * h


def padded_gru(params, padded_data, lengths, h0):
    def step(carry, inputs):
        h, total = carry
        x, t = inputs
        alive = (t < lengths)[:, None]
        h_new = gru_cell(params, h, x)
        total = total + jnp.sum(jnp.where(alive, h_new, 0.0))
        return (jnp.where(alive, h_new, h), total), None

    steps = jnp.arange(padded_data.shape[0])
    (_, total), _ = lax.scan(step, (h0, 0.0), (padded_data, steps))
    return total


# --- oracle ---
def ENTRY():
    d, hdim = 3, 4
    params = {k: jnp.full((d if k[0] == "w" else hdim, hdim), 0.1) for k in ("wz", "uz", "wr", "ur", "wn", "un")}
    padded = jnp.linspace(-1.0, 1.0, 27).reshape(3, 3, 3)
    return padded_gru, (params, padded, jnp.array([3, 3, 2], jnp.int32), jnp.zeros((3, hdim)))
