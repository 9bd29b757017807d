"""Source: https://github.com/google/flax/issues/1077 (the fix: the number of doublings comes from the static width with Python arithmetic, so the construction loop unrolls at trace time and the jitted apply compiles)."""
import math

import jax
import jax.numpy as jnp


def hadamard(n, dtype=jnp.float32):
    lg2 = int(math.log2(n))
    h = jnp.ones((1, 1), dtype=dtype)
    for _ in range(lg2):
        h = jnp.vstack([jnp.hstack([h, h]), jnp.hstack([h, -h])])
    return h * 2 ** (-lg2 / 2)


def hadamard_mix(params, x):
    kernel = hadamard(x.shape[-1])
    return jnp.dot(x, kernel) * params["scale"]


# --- oracle ---


def ENTRY():
    x = jnp.arange(2 * 8, dtype=jnp.float32).reshape(2, 8) / 16.0
    return hadamard_mix, ({"scale": jnp.float32(0.5)}, x)
