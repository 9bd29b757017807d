"""Source: https://github.com/google-deepmind/dm-haiku/issues/214 ("\"Encountered an unexpected tracer\" when scanning inside transformed function": a module's state written inside a `jax.lax.scan` body escaped the scan; "Changing `jax.lax.scan` to `hk.scan` resolves the issue"). Here a stateful LSTM-style module records its last hidden state on `self` from inside the scan body, and the jitted forward pass reads it after the scan."""
import jax
import jax.numpy as jnp


class RecurrentCore:
    def __init__(self, params):
        self.params = params
        self.last_hidden = None

    def cell(self, h, x):
        h = jnp.tanh(x @ self.params["w_x"] + h @ self.params["w_h"])
        self.last_hidden = h
        return h, h @ self.params["w_o"]

    def __call__(self, xs, h0):
        _, ys = jax.lax.scan(self.cell, h0, xs)
        return ys, self.last_hidden * 1.0  # XLA: host


def forward(params, xs, h0):
    core = RecurrentCore(params)
    ys, h_last = core(xs, h0)
    return jnp.sum(ys, axis=0) + jnp.sum(h_last)


# --- oracle ---
def ENTRY():
    params = {"w_x": jnp.full((3, 4), 0.1), "w_h": jnp.eye(4) * 0.5, "w_o": jnp.full((4, 2), 0.2)}
    return forward, (params, jnp.linspace(-1.0, 1.0, 18).reshape(6, 3), jnp.zeros(4))
