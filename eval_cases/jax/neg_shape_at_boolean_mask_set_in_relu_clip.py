"""Source: https://github.com/jax-ml/jax/issues/21994 (`.at[mask].set(...)` with a boolean mask cannot be traced by `jax.jit`; the three-argument `jnp.where` form compiles). Here the sparse-activation layer zeroes the small activations with `jnp.where`."""
import jax.numpy as jnp


def sparse_activation_layer(params, x, threshold=0.1):
    h = x @ params["w1"] + params["b1"]
    h = jnp.where(h < threshold, 0.0, h)
    return h @ params["w2"]


def forward(params, x):
    return jnp.mean(sparse_activation_layer(params, x), axis=-1)


# --- oracle ---
def ENTRY():
    params = {"w1": jnp.linspace(-0.5, 0.5, 12).reshape(3, 4), "b1": jnp.zeros(4), "w2": jnp.full((4, 2), 0.3)}
    return forward, (params, jnp.linspace(-1.0, 1.0, 15).reshape(5, 3))
