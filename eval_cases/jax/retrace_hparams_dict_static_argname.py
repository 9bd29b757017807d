"""Source: https://github.com/jax-ml/jax/issues/4712 (aggressive jit recompilation with equal-but-not-identical static arguments: an unhashable container passed as a static argument was hashed by identity, so every fresh copy recompiled; current JAX rejects it)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("hparams",))
def mlp_forward(params, x, hparams):  # XLA: retrace
    h = x
    for w in params:
        h = jnp.tanh(h @ w) if hparams["activation"] == "tanh" else jax.nn.relu(h @ w)
    return h * hparams["output_scale"]


# --- oracle ---
def ENTRY():
    params = [jnp.eye(3) * 0.5, jnp.ones((3, 2)) * 0.1]
    return mlp_forward, (params, jnp.arange(6.0).reshape(2, 3), {"activation": "tanh", "output_scale": 2.0})


def ALT_ARGS():
    params = [jnp.eye(3) * 0.5, jnp.ones((3, 2)) * 0.1]
    return [(params, jnp.ones((2, 3)), {"activation": "tanh", "output_scale": 2.0})]
