"""Source: https://github.com/jax-ml/jax/issues/31319 ("`cache_miss` caused by `jax.pure_callback`, silent recompilation": a jitted function that calls a NumPy host function through `jax.pure_callback` shows `cache_miss` in traces and was reported to compile again on later calls). With jax 0.10.2 on CPU the oracle saw one trace and one compile for calls of the same shapes, so this case is a negative. Here a jitted regression step computes a NumPy feature through `pure_callback` and is called once per batch of the same shape."""
import jax
import jax.numpy as jnp
import numpy as np


def host_feature(x):
    return np.sin(x).astype(x.dtype)


@jax.jit
def step(w, x, y):
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    features = jax.pure_callback(host_feature, shape, x, vmap_method="sequential")
    pred = features @ w
    grad = features.T @ (pred - y) / x.shape[0]
    return w - 0.1 * grad


# --- oracle ---
COMPARE = False


def ENTRY():
    x = jnp.arange(12, dtype=jnp.float32).reshape(4, 3) / 10.0
    return step, (jnp.zeros(3), x, jnp.ones(4))


def ALT_ARGS():
    x = jnp.arange(12, 24, dtype=jnp.float32).reshape(4, 3) / 10.0
    return [(jnp.ones(3), x, jnp.zeros(4)), (jnp.zeros(3), x + 1.0, jnp.ones(4))]
