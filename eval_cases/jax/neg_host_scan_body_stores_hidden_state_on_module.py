"""Source: https://github.com/google-deepmind/dm-haiku/issues/214 (state written from inside a `jax.lax.scan` body escaped the scan as an unexpected tracer). Here the recurrent core returns its last hidden state through the scan carry instead of storing it on `self`, so nothing leaks out of the scan."""
import jax
import jax.numpy as jnp


class RecurrentCore:
    def __init__(self, params):
        self.params = params

    def cell(self, h, x):
        h = jnp.tanh(x @ self.params["w_x"] + h @ self.params["w_h"])
        return h, h @ self.params["w_o"]

    def __call__(self, xs, h0):
        h_last, ys = jax.lax.scan(self.cell, h0, xs)
        return ys, h_last


def forward(params, xs, h0):
    core = RecurrentCore(params)
    ys, h_last = core(xs, h0)
    return jnp.sum(ys, axis=0) + jnp.sum(h_last)


# --- oracle ---
def ENTRY():
    params = {"w_x": jnp.full((3, 4), 0.1), "w_h": jnp.eye(4) * 0.5, "w_o": jnp.full((4, 2), 0.2)}
    return forward, (params, jnp.linspace(-1.0, 1.0, 18).reshape(6, 3), jnp.zeros(4))
