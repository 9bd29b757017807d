"""Source: https://github.com/jax-ml/jax/pull/23229 ("improve `scan` error message on non-concrete `unroll` argument": `jax.jit(lambda n, x: jax.lax.scan(..., unroll=n))(3, 1.)` raised "TracerBoolConversionError: Attempted boolean conversion of traced array"; now "The `unroll` argument to `scan` expects a concrete `int` or `bool` value"). Here an RNN rollout takes its unroll factor as a tuning argument of the jitted function."""
import jax
import jax.numpy as jnp


def rnn_cell(params, h, x):
    return jnp.tanh(h @ params["w_hh"] + x @ params["w_xh"] + params["b"])


def rollout(params, xs, h0, unroll):
    def step(h, x):
        h = rnn_cell(params, h, x)
        return h, h @ params["w_out"]

    h, ys = jax.lax.scan(step, h0, xs, unroll=unroll)  # XLA: cond
    return h, ys


# --- oracle ---
def ENTRY():
    params = {"w_hh": jnp.eye(4) * 0.5, "w_xh": jnp.full((3, 4), 0.1), "b": jnp.zeros(4),
              "w_out": jnp.full((4, 2), 0.3)}
    xs = jnp.linspace(-1.0, 1.0, 30).reshape(10, 3)
    return rollout, (params, xs, jnp.zeros(4), 2)
