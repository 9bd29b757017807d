"""Source: https://github.com/jax-ml/jax/issues/15412 (recompilation whenever the input matrix shapes change; the usual answer: pad every input up to a fixed bucket size and mask, so one compiled function serves all sizes)."""
import jax
import jax.numpy as jnp

BUCKET = 8


@jax.jit
def weighted_misfit(lmat, cs, valid):
    residual = (lmat @ cs) * valid
    return jnp.sum(residual ** 2) / jnp.maximum(jnp.sum(valid), 1.0)


# --- oracle ---
def _padded(n):
    lmat = jnp.pad(jnp.eye(n) * 0.5, ((0, BUCKET - n), (0, BUCKET - n)))
    cs = jnp.pad(jnp.arange(n, dtype=jnp.float32), (0, BUCKET - n))
    return lmat, cs, jnp.pad(jnp.ones(n), (0, BUCKET - n))


def ENTRY():
    return weighted_misfit, _padded(5)


def ALT_ARGS():
    return [_padded(6), _padded(3)]
