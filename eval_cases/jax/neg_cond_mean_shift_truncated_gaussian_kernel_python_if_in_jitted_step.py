"""Source: https://github.com/jax-ml/jax/issues/1076 ("noob vmap question with if statement": a Python `if` on a batched value fails under `vmap`; the suggested rewrite is `jnp.where`, which selects per element). Near miss: the scalar truncated-Gaussian kernel, called per offset in the jitted mean-shift step, uses `jnp.where` instead of the `if`."""
import jax
import jax.numpy as jnp

BANDWIDTH = 0.18


def kernel_scalar(x, lam=BANDWIDTH, beta=1.0):
    return jnp.where(jnp.abs(x) > lam, 0.0, jnp.exp(-beta * x ** 2))


@jax.jit
def mean_shift_step(points, data):
    def shift(p):
        w = jnp.stack([kernel_scalar(d) for d in data - p])
        return jnp.sum(w * data) / (jnp.sum(w) + 1e-6)

    return jnp.stack([shift(p) for p in points])


# --- oracle ---
def ENTRY():
    data = jnp.concatenate([jnp.linspace(-1.0, -0.8, 10), jnp.linspace(0.5, 0.7, 10)])
    return mean_shift_step, (jnp.array([-0.9, -0.7, 0.55, 0.8]), data)
