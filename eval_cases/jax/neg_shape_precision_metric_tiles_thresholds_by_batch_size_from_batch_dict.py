"""Source: https://github.com/keras-team/keras-core/issues/718 ("TraceArrayConversionError when using JAX as backend": `jnp.tile` repetitions are a shape and must be static under `jit`). Near miss: the jitted metric update tiles the thresholds by `batch["scores"].shape[0]`, a static Python integer at trace time."""
import jax
import jax.numpy as jnp

THRESHOLDS = jnp.array([0.25, 0.5, 0.75])


@jax.jit
def precision_update(state, batch):
    tp, fp = state
    thr = jnp.tile(THRESHOLDS[:, None], (1, batch["scores"].shape[0]))
    pred_pos = batch["scores"][None, :] >= thr
    is_pos = batch["labels"][None, :] == 1
    tp = tp + jnp.sum(pred_pos & is_pos, axis=1)
    fp = fp + jnp.sum(pred_pos & ~is_pos, axis=1)
    return tp, fp


# --- oracle ---
def ENTRY():
    batch = {
        "scores": jnp.array([0.1, 0.4, 0.35, 0.8, 0.9, 0.6]),
        "labels": jnp.array([0, 1, 0, 1, 1, 0]),
        "size": jnp.int32(6),
    }
    return precision_update, ((jnp.zeros(3, jnp.int32), jnp.zeros(3, jnp.int32)), batch)
