"""Source: https://github.com/jax-ml/jax/issues/2072 (the near miss: keep one shape and mask the unused columns; originally: "Memory leak in a simple loop with no side effects": `f_jit = jit(f)` applied inside nested loops to `x = random.normal(key, (500, i))` and `y` of sizes that shrink at every iteration; mattjj: "I think we'd expect the compile cache to grow as this runs", one compilation per new shape). Here every window keeps the full width and zeroes the columns past the window, and the mean is taken over the full matrix times a correction."""
import jax
import jax.numpy as jnp


@jax.jit
def mean_cross_covariance(x, y, width):
    mask = (jnp.arange(x.shape[1]) < width).astype(x.dtype)
    prod = (x * mask).T @ (y * mask)
    return jnp.sum(prod) / (width * width)


def sweep(x_full, y_full, widths=(12, 10, 8)):
    out = []
    for w in widths:
        out.append(mean_cross_covariance(x_full, y_full, jnp.float32(w)))
    return jnp.stack(out)


# --- oracle ---
WRAP = False


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 96).reshape(8, 12)
    return sweep, (x, x[::-1], (12, 10, 8))


def ALT_ARGS():
    x = jnp.linspace(-1.0, 1.0, 96).reshape(8, 12)
    return [(x, x[::-1], (11, 9, 7))]
