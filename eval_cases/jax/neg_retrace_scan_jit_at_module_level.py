"""Source: https://github.com/jax-ml/jax/issues/2251 (the version that was fast in that thread: the jitted scan is defined once at module level with the horizon static, so later calls with new values reuse the compiled scan)."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=(2,))
def _scan(state, rate, T):
    def infect(s, _):
        s = s + rate * s * (1.0 - s)
        return s, s
    return lax.scan(infect, state, None, length=T)[1]


def pandemic_scan(state, rate, T=5):
    return _scan(state, rate, T)


# --- oracle ---
WRAP = False


def ENTRY():
    return pandemic_scan, (jnp.array([0.01, 0.02]), jnp.array(0.5))


def ALT_ARGS():
    return [(jnp.array([0.03, 0.01]), jnp.array(0.4))]
