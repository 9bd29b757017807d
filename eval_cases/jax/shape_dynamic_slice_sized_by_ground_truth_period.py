"""Source: https://github.com/brainpy/BrainPy/issues/607 ("How to index and slice in the loss function during training": `idx = jax.lax.dynamic_index_in_dim(gt, i)` then `jax.lax.dynamic_slice(out, (0, i), (idx, 1))` raised "TypeError: Shapes must be 1D sequences of concrete values of integer type"; chaoming0625: "XLA only compiles models with static shapes. The dynamic slicing implies the dynamic shape. ... Masking is a good idea"). Here a spiking-network loss compares each sample's output only over its labelled period, slicing the time axis by the period length read from the targets."""
import jax
import jax.numpy as jnp


def period_loss(out, periods, targets):
    # out: (time, batch) network read-out; periods: (batch,) valid length per sample
    batch_size = out.shape[1]
    total = 0.0
    for i in range(batch_size):
        idx = jax.lax.dynamic_index_in_dim(periods, i, keepdims=False)
        segment = jax.lax.dynamic_slice(out, (0, i), (idx, 1))  # XLA: shape
        total = total + jnp.mean((segment - targets[i]) ** 2)
    return total / batch_size


def train_loss(w, inputs, periods, targets):
    out = jnp.tanh(inputs @ w)
    return period_loss(out, periods, targets)


# --- oracle ---
def ENTRY():
    inputs = jnp.linspace(-1.0, 1.0, 40).reshape(10, 4)
    w = jnp.full((4, 3), 0.2)
    return train_loss, (w, inputs, jnp.array([4, 7, 10], jnp.int32), jnp.array([0.1, -0.2, 0.3]))
