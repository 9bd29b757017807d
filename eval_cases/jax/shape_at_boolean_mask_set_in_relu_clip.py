"""Source: https://github.com/jax-ml/jax/issues/21994 ("Add support for boolean mask indices inside jit": "jax always complains when you use `.at[...]` with boolean masks inside of `jax.jit`"; `x.at[x < 5].set(0)` fails under `jax.jit` while `jnp.where(x < 5, 0, x)` works). Here a sparse-activation layer zeroes the activations under a threshold with a boolean-mask `.at[...].set` before the output projection."""
import jax.numpy as jnp


def sparse_activation_layer(params, x, threshold=0.1):
    h = x @ params["w1"] + params["b1"]
    h = h.at[h < threshold].set(0.0)  # XLA: shape
    return h @ params["w2"]


def forward(params, x):
    return jnp.mean(sparse_activation_layer(params, x), axis=-1)


# --- oracle ---
def ENTRY():
    params = {"w1": jnp.linspace(-0.5, 0.5, 12).reshape(3, 4), "b1": jnp.zeros(4), "w2": jnp.full((4, 2), 0.3)}
    return forward, (params, jnp.linspace(-1.0, 1.0, 15).reshape(5, 3))
