"""Source: https://github.com/jax-ml/jax/issues/648 (a count made static compiles once per value; here `lax.scan(length=horizon)` with the horizon static, swept by the caller; row seq.scan_length_static_new_each_call of xlacheck/data/jax_cache_key.json: 3 values, 3 compiles)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("horizon",))
def rollout(x, horizon):
    def body(s, _):
        s = 0.9 * s + 0.1
        return s, s
    _, trajectory = jax.lax.scan(body, x, None, length=horizon)
    return trajectory.mean()


def evaluate(x, horizons):
    return [rollout(x, horizon=h) for h in horizons]  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return evaluate, (jnp.ones(3), [2, 3])


def ALT_ARGS():
    return [(jnp.ones(3), [4, 5])]
