"""Source: https://github.com/unifyai/ivy/pull/16255 ("remove numpy call from jax asarray": a Flax `Linear` wrapper called `x = np.asarray(x)` at the top of `__call__`, which works eagerly but raises TracerArrayConversionError once the model runs under `jax.jit`; changing it to `jnp.asarray(x)` fixes it). Here a three-layer MLP of small linear layers, whose layers coerce their inputs with NumPy, is applied inside a jitted loss."""
import jax
import jax.numpy as jnp
import numpy as np


class Linear:
    def __init__(self, key, in_size, out_size):
        self.w = jax.random.normal(key, (in_size, out_size)) / np.sqrt(in_size)
        self.b = jnp.zeros((out_size,))

    def __call__(self, x):
        x = np.asarray(x)  # XLA: host
        return x @ self.w + self.b


class MLP:
    def __init__(self, key, in_size, out_size, hidden_size=4):
        k0, k1, k2 = jax.random.split(key, 3)
        self.layers = [Linear(k0, in_size, hidden_size), Linear(k1, hidden_size, hidden_size),
                       Linear(k2, hidden_size, out_size)]

    def __call__(self, x):
        x = jnp.expand_dims(x, 0)
        for layer in self.layers:
            x = jnp.tanh(layer(x))
        return x[0]


model = MLP(jax.random.PRNGKey(0), 2, 2)


@jax.jit
def loss_fn(x, target):
    return jnp.mean((model(x) - target) ** 2)


# --- oracle ---
def ENTRY():
    return loss_fn, (jnp.array([0.1, 0.2]), jnp.array([0.0, 1.0]))
