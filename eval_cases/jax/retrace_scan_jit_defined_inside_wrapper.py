"""Source: https://github.com/jax-ml/jax/issues/2251 ("lax.scan ~100x slower than recursion?": the jitted scan was defined inside the wrapper that is called for every simulation, so each call traces and compiles it again)."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def pandemic_scan(state, rate, T=5):
    @partial(jax.jit, static_argnums=(2,))
    def _scan(state, rate, T):  # XLA: retrace
        def infect(s, _):
            s = s + rate * s * (1.0 - s)
            return s, s
        return lax.scan(infect, state, None, length=T)[1]

    return _scan(state, rate, T)


# --- oracle ---
WRAP = False


def ENTRY():
    return pandemic_scan, (jnp.array([0.01, 0.02]), jnp.array(0.5))


def ALT_ARGS():
    return [(jnp.array([0.03, 0.01]), jnp.array(0.4))]
