"""Source: https://github.com/jax-ml/jax/issues/2072 ("Memory leak in a simple loop with no side effects": `f_jit = jit(f)` applied inside nested loops to `x = random.normal(key, (500, i))` and `y` of sizes that shrink at every iteration; mattjj: "I think we'd expect the compile cache to grow as this runs", one compilation per new shape). Here a kernel two-sample statistic is jitted once and evaluated on a window of the data that shrinks at every step of a sweep."""
import jax
import jax.numpy as jnp


@jax.jit
def mean_cross_covariance(x, y):
    return jnp.mean(x.T @ y)


def sweep(x_full, y_full, widths=(12, 10, 8)):
    out = []
    for w in widths:
        x = x_full[:, :w]
        y = y_full[:, :w]
        out.append(mean_cross_covariance(x, y))  # XLA: retrace
    return jnp.stack(out)


# --- oracle ---
WRAP = False


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 96).reshape(8, 12)
    return sweep, (x, x[::-1], (12, 10, 8))


def ALT_ARGS():
    x = jnp.linspace(-1.0, 1.0, 96).reshape(8, 12)
    return [(x, x[::-1], (11, 9, 7))]
