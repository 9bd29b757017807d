"""Source: https://github.com/jax-ml/jax/issues/3163 ("Double jit-compilation in loop when passing plain types": an accumulator that starts as the Python int 0 is a weakly typed int32 on the first call, and what the jitted function returns is not, so the second call traces and compiles again)."""
import jax
import jax.numpy as jnp


@jax.jit
def add_batch_loss(total, preds, targets):
    return total + jnp.mean((preds - targets) ** 2)


def evaluate(batches):
    total = 0  # XLA: retrace
    for preds, targets in batches:
        total = add_batch_loss(total, preds, targets)
    return total


# --- oracle ---
def ENTRY():
    return add_batch_loss, (0, jnp.ones(4), jnp.zeros(4))


def ALT_ARGS():
    return [(jnp.float32(1.0), jnp.ones(4) * 0.5, jnp.zeros(4))]
