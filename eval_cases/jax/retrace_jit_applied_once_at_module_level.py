"""Source: https://github.com/jax-ml/jax/issues/2814 (the fix for a function that recompiled on every call: jit the model once at module level with the configuration as a hashable static argument. The jitted model then hits its cache, but the evaluation loop around it still stacks the per-batch means eagerly, and `jnp.stack` over a list of a new length compiles again)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def mlp(scale, params, x):
    h = x
    for w in params[:-1]:
        h = jax.nn.relu(h @ w) * scale
    return h @ params[-1]


def evaluate(scale, params, batches):
    return jnp.stack([jnp.mean(mlp(scale, params, xb)) for xb in batches])  # XLA: retrace


# --- oracle ---
WRAP = False


def _params():
    return [jnp.ones((3, 4)) * 0.1, jnp.ones((4, 2)) * 0.2]


def ENTRY():
    return evaluate, (1.0, _params(), [jnp.ones((2, 3))])


def ALT_ARGS():
    return [(1.0, _params(), [jnp.ones((2, 3)) * 2.0, jnp.ones((2, 3)) * 3.0])]
