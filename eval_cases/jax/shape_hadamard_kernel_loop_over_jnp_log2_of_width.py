"""Source: https://github.com/google/flax/issues/1077 ("Shape-dependent initialization gives concretization error at apply": a Hadamard-transform layer builds its matrix with `lg2 = jnp.log2(shape[0])` and `for i in jnp.arange(lg2)`, which works at init but fails under the jitted apply). Here the fixed Hadamard mixing matrix is built from the feature width inside the jitted forward pass."""
import jax
import jax.numpy as jnp


def hadamard(n, dtype=jnp.float32):
    lg2 = jnp.log2(n)
    h = jnp.ones((1, 1), dtype=dtype)
    for _ in jnp.arange(lg2):  # XLA: shape
        h = jnp.vstack([jnp.hstack([h, h]), jnp.hstack([h, -h])])
    return h * 2 ** (-lg2 / 2)


def hadamard_mix(params, x):
    kernel = hadamard(x.shape[-1])
    return jnp.dot(x, kernel) * params["scale"]


# --- oracle ---


def ENTRY():
    x = jnp.arange(2 * 8, dtype=jnp.float32).reshape(2, 8) / 16.0
    return hadamard_mix, ({"scale": jnp.float32(0.5)}, x)
