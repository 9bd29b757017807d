"""Source: https://github.com/jax-ml/jax/issues/2814 ("Jit recompilation warning": the common performance bug of a jitted function recompiled on every call; here a predict helper wraps a fresh `functools.partial` of the model in `jax.jit` each time it is called, so the cache never hits)."""
import functools

import jax
import jax.numpy as jnp


def mlp(config, params, x):
    h = x
    for w in params[:-1]:
        h = jax.nn.relu(h @ w) * config["scale"]
    return h @ params[-1]


def predict(config, params, x):
    fn = jax.jit(functools.partial(mlp, config))  # XLA: retrace
    return fn(params, x)


def evaluate(config, params, batches):
    return jnp.stack([jnp.mean(predict(config, params, xb)) for xb in batches])


# --- oracle ---
WRAP = False


def _params():
    return [jnp.ones((3, 4)) * 0.1, jnp.ones((4, 2)) * 0.2]


def ENTRY():
    return evaluate, ({"scale": 1.0}, _params(), [jnp.ones((2, 3))])


def ALT_ARGS():
    return [({"scale": 1.0}, _params(), [jnp.ones((2, 3)) * 2.0, jnp.ones((2, 3)) * 3.0])]
