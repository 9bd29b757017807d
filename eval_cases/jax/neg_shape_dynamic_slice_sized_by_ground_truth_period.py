"""Source: https://github.com/brainpy/BrainPy/issues/607 (slicing each sample's output by a period read from the targets gave a dynamic shape under `jit`; the maintainer's suggestion: "Masking is a good idea"). Here the loss masks the time steps beyond each sample's period instead of slicing, so every shape is static."""
import jax.numpy as jnp


def period_loss(out, periods, targets):
    t = jnp.arange(out.shape[0])[:, None]
    mask = (t < periods[None, :]).astype(out.dtype)
    sq = (out - targets[None, :]) ** 2 * mask
    per_sample = jnp.sum(sq, axis=0) / jnp.maximum(jnp.sum(mask, axis=0), 1.0)
    return jnp.mean(per_sample)


def train_loss(w, inputs, periods, targets):
    out = jnp.tanh(inputs @ w)
    return period_loss(out, periods, targets)


# --- oracle ---
def ENTRY():
    inputs = jnp.linspace(-1.0, 1.0, 40).reshape(10, 4)
    w = jnp.full((4, 3), 0.2)
    return train_loss, (w, inputs, jnp.array([4, 7, 10], jnp.int32), jnp.array([0.1, -0.2, 0.3]))
