"""Source: https://github.com/jax-ml/jax/issues/4212 ("How to handle boolean masks": a Kalman update selects the observations that are not NaN with a boolean mask, `y[valid]`, `H[valid, :]`; outside jit the selection works, but the jitted update then sees a new number of rows, a new shape, whenever the count of valid observations changes)."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def kalman_update(x, P, y, H, r):
    S = H @ P @ H.T + r * jnp.eye(H.shape[0])
    K = P @ H.T @ jnp.linalg.inv(S)
    return x + K @ (y - H @ x), (jnp.eye(P.shape[0]) - K @ H) @ P


def filter_series(x, P, ys, H, r=0.5):
    for y in ys:
        valid = ~np.isnan(y)
        x, P = kalman_update(x, P, y[valid], H[valid], r)  # XLA: retrace
    return x


# --- oracle ---
WRAP = False
_H = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], np.float32)


def ENTRY():
    ys = np.array([[1.0, 2.0, 3.0], [1.0, np.nan, 2.0]], np.float32)
    return filter_series, (jnp.zeros(2), jnp.eye(2), ys, _H)


def ALT_ARGS():
    ys = np.array([[np.nan, np.nan, 3.0], [1.0, 2.0, 2.5]], np.float32)
    return [(jnp.zeros(2), jnp.eye(2), ys, _H)]
