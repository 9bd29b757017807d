"""Source: https://github.com/jax-ml/jax/issues/803 ("Jit with unknown shape": jit recompiles for every new set of input shapes, so an evaluation loop that feeds mini-batches of varying sizes to one jitted function compiles once per size)."""
import jax
import jax.numpy as jnp


@jax.jit
def predict(params, x):
    h = jnp.tanh(x @ params["w1"])
    return h @ params["w2"]


def evaluate(params, batches):
    return jnp.stack([jnp.mean(predict(params, xb)) for xb in batches])  # XLA: retrace


def init_params():
    return {"w1": jnp.ones((3, 4)) * 0.1, "w2": jnp.ones((4, 1)) * 0.2}


# --- oracle ---
WRAP = False


def ENTRY():
    batches = [jnp.ones((4, 3)), jnp.ones((4, 3)) * 2.0]
    return evaluate, (init_params(), batches)


def ALT_ARGS():
    batches = [jnp.ones((3, 3)), jnp.ones((5, 3)) * 2.0]
    return [(init_params(), batches)]
