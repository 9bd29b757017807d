"""Source: https://github.com/jax-ml/jax/issues/4712 (fix from the discussion: make the static configuration hashable by value, here a NamedTuple, so an equal but new object hits the compilation cache)."""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class HParams(NamedTuple):
    activation: str
    output_scale: float


@partial(jax.jit, static_argnames=("hparams",))
def mlp_forward(params, x, hparams):
    h = x
    for w in params:
        h = jnp.tanh(h @ w) if hparams.activation == "tanh" else jax.nn.relu(h @ w)
    return h * hparams.output_scale


# --- oracle ---
def ENTRY():
    params = [jnp.eye(3) * 0.5, jnp.ones((3, 2)) * 0.1]
    return mlp_forward, (params, jnp.arange(6.0).reshape(2, 3), HParams("tanh", 2.0))


def ALT_ARGS():
    params = [jnp.eye(3) * 0.5, jnp.ones((3, 2)) * 0.1]
    return [(params, jnp.ones((2, 3)), HParams("tanh", 2.0))]
