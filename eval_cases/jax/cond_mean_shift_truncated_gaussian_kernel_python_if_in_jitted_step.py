"""Source: https://github.com/jax-ml/jax/issues/1076 ("noob vmap question with if statement": a scalar truncated-Gaussian kernel written with a Python `if np.abs(x) > lam:` fails under `vmap` with "Abstract value passed to `bool`", even without `jit`; the answer is `jnp.where`). Here a jitted mean-shift clustering step evaluates the same kind of scalar kernel on each offset from each point (a Python loop over the arrays, which traces one kernel call per element)."""
import jax
import jax.numpy as jnp

BANDWIDTH = 0.18


def kernel_scalar(x, lam=BANDWIDTH, beta=1.0):
    if jnp.abs(x) > lam:  # XLA: cond
        return 0.0
    return jnp.exp(-beta * x ** 2)


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
