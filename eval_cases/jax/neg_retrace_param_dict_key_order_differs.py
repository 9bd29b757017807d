"""Source: https://github.com/jax-ml/jax/issues/4085 (pytree flattening sorts dict keys, so parameter dicts restored with their keys in a different order hit the same jit cache entry; the design discussion keeps this to avoid recompiles)."""
import jax
import jax.numpy as jnp


@jax.jit
def forward(params, x):
    h = jax.nn.relu(x @ params["dense1"] + params["bias1"])
    return h @ params["dense2"]


def restore_params(order):
    values = {"dense1": jnp.ones((3, 4)) * 0.1, "bias1": jnp.zeros(4), "dense2": jnp.ones((4, 2)) * 0.3}
    return {k: values[k] for k in order}


# --- oracle ---
WRAP = False


def ENTRY():
    return forward, (restore_params(["dense1", "bias1", "dense2"]), jnp.ones((2, 3)))


def ALT_ARGS():
    return [(restore_params(["dense2", "dense1", "bias1"]), jnp.ones((2, 3)) * 2.0)]
