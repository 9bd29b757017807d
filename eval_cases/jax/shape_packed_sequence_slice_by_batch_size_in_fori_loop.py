"""Source: https://github.com/jax-ml/jax/issues/2323 ("size of slices can't be functions of argument values": a `fori_loop` body over a packed sequence did `batch = dynamic_slice_in_dim(packed_input_data, input_offset, batch_size)` with `batch_size = packed_input.batch_sizes[i]`, and raised "Abstract value passed to `int`, which requires a concrete value"). Here a packed-sequence GRU walks the time steps with `lax.fori_loop`, slicing the rows of each step by that step's batch size."""
import jax
import jax.numpy as jnp
from jax import lax


def gru_cell(params, h, x):
    z = jax.nn.sigmoid(x @ params["wz"] + h @ params["uz"])
    r = jax.nn.sigmoid(x @ params["wr"] + h @ params["ur"])
    n = jnp.tanh(x @ params["wn"] + (r * h) @ params["un"])
    return (1 - z) * n + z * h


def packed_gru(params, packed_data, batch_sizes, h0):
    def body_fun(i, val):
        h, offset, total = val
        batch_size = batch_sizes[i]
        batch = lax.dynamic_slice_in_dim(packed_data, offset, batch_size)  # XLA: shape
        h_new = gru_cell(params, h[:batch_size], batch)
        total = total + jnp.sum(h_new)
        return h, offset + batch_size, total

    _, _, total = lax.fori_loop(0, batch_sizes.shape[0], body_fun, (h0, 0, 0.0))
    return total


# --- oracle ---
def ENTRY():
    d, hdim = 3, 4
    params = {k: jnp.full((d if k[0] == "w" else hdim, hdim), 0.1) for k in ("wz", "uz", "wr", "ur", "wn", "un")}
    packed = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    return packed_gru, (params, packed, jnp.array([3, 3, 2], jnp.int32), jnp.zeros((3, hdim)))
