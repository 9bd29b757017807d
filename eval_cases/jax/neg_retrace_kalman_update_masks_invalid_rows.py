"""Source: https://github.com/jax-ml/jax/issues/4212 (the maintainers' answer for a Kalman update over observations with NaNs: keep every row and zero out the invalid ones with the three-argument jnp.where, so the jitted update sees one shape)."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def kalman_update(x, P, y, H, valid, r):
    H = jnp.where(valid[:, None], H, 0.0)
    y = jnp.where(valid, y, 0.0)
    S = H @ P @ H.T + r * jnp.eye(H.shape[0])
    K = P @ H.T @ jnp.linalg.inv(S)
    return x + K @ (y - H @ x), (jnp.eye(P.shape[0]) - K @ H) @ P


def filter_series(x, P, ys, H, r=0.5):
    for y in ys:
        valid = ~np.isnan(y)
        x, P = kalman_update(x, P, y, H, valid, r)
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
