"""Source: https://github.com/jax-ml/jax/issues/10550 ("Unexpected slowness from jitted function" with a bucketed jit: inputs of 5 and 7 rows share the jitted program for 8 rows, but the `jnp.pad` and the slice run eagerly outside it and compile again for every new input size)."""
import math

import jax
import jax.numpy as jnp


@jax.jit
def row_norms(x):
    return jnp.linalg.norm(x, axis=-1)


def bucketed_row_norms(x):
    b = x.shape[0]
    n = 2 ** int(math.ceil(math.log2(b)))
    y = row_norms(jnp.pad(x, [(0, n - b), (0, 0)]))  # XLA: retrace
    return y[:b]


# --- oracle ---
WRAP = False


def ENTRY():
    return bucketed_row_norms, (jnp.ones((5, 3)),)


def ALT_ARGS():
    return [(jnp.ones((7, 3)) * 2.0,)]
