"""Source: https://github.com/google/flax/issues/4146 (with `jax.jit(..., static_argnames=("training",))` a flag passed positionally is still static, so the Python `if training:` compiles; nnx.jit differed, jax.jit does not)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("training",))
def forward(params, x, training):
    h = jax.nn.relu(x @ params["w"])
    if training:
        h = h * 0.9
    return h @ params["v"]


# --- oracle ---
WRAP = False


def ENTRY():
    params = {"w": jnp.ones((3, 4)) * 0.1, "v": jnp.ones((4, 2))}
    return forward, (params, jnp.ones((2, 3)), True)
