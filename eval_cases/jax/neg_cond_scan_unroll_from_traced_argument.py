"""Source: https://github.com/jax-ml/jax/pull/23229 (a traced `unroll` argument to `lax.scan` under `jit` raised a boolean-conversion error; `unroll` must be a concrete int or bool). Here the unroll factor is a static argument of the jitted rollout (`static_argnames`), so `scan` receives a Python int."""
from functools import partial

import jax
import jax.numpy as jnp


def rnn_cell(params, h, x):
    return jnp.tanh(h @ params["w_hh"] + x @ params["w_xh"] + params["b"])


@partial(jax.jit, static_argnames=("unroll",))
def rollout(params, xs, h0, unroll):
    def step(h, x):
        h = rnn_cell(params, h, x)
        return h, h @ params["w_out"]

    h, ys = jax.lax.scan(step, h0, xs, unroll=unroll)
    return h, ys


# --- oracle ---
def ENTRY():
    params = {"w_hh": jnp.eye(4) * 0.5, "w_xh": jnp.full((3, 4), 0.1), "b": jnp.zeros(4),
              "w_out": jnp.full((4, 2), 0.3)}
    xs = jnp.linspace(-1.0, 1.0, 30).reshape(10, 3)
    return partial(rollout, unroll=2), (params, xs, jnp.zeros(4))
