"""Source: https://github.com/jax-ml/jax/issues/6997 (the trick described there: round variable batch sizes up to the next power of two and pad, so the jitted function compiles once per bucket; batches that fall into the same bucket reuse the compiled program)."""
import jax
import jax.numpy as jnp


@jax.jit
def masked_loss(params, inputs, targets, valid):
    pred = inputs @ params
    return jnp.sum(valid * (pred - targets) ** 2) / jnp.maximum(jnp.sum(valid), 1.0)


def pad_to_bucket(inputs, targets):
    n = inputs.shape[0]
    bucket = 1 << (n - 1).bit_length()
    pad = bucket - n
    return (jnp.pad(inputs, ((0, pad), (0, 0))), jnp.pad(targets, (0, pad)),
            jnp.pad(jnp.ones(n), (0, pad)))


# --- oracle ---
def _batch(n):
    x = jnp.arange(n * 3, dtype=jnp.float32).reshape(n, 3) / (3.0 * n)
    return pad_to_bucket(x, jnp.ones(n))


def ENTRY():
    return masked_loss, (jnp.ones(3) * 0.5, *_batch(5))


def ALT_ARGS():
    return [(jnp.ones(3) * 0.5, *_batch(7)), (jnp.ones(3) * 0.5, *_batch(6))]
