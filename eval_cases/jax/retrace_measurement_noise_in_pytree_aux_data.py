"""Source: https://github.com/ryan112358/mbi/pull/196 ("Make stddev and lipschitz dynamic pytree leaves to fix precompile() cache misses": `stddev` was static pytree aux-data, "baked into the treedef and therefore into the `jax.jit` cache key. Two measurements/losses that differ only in noise level ... forced a full recompilation"). Here a measurement pytree registered with its noise scale in the aux data is passed to a jitted marginal loss, once per privacy budget."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class LinearMeasurement:
    def __init__(self, noisy_values, stddev):
        self.noisy_values = noisy_values
        self.stddev = stddev

    def tree_flatten(self):
        return (self.noisy_values,), self.stddev  # XLA: retrace

    @classmethod
    def tree_unflatten(cls, stddev, children):
        return cls(children[0], stddev)


@jax.jit
def marginal_loss(marginal, measurement):
    diff = marginal - measurement.noisy_values
    return jnp.sum(diff ** 2) / (2.0 * measurement.stddev ** 2)


def loss_for_budget(marginal, noisy_values, epsilon):
    measurement = LinearMeasurement(noisy_values, stddev=1.0 / epsilon)
    return marginal_loss(marginal, measurement)


# --- oracle ---
WRAP = False


def ENTRY():
    return loss_for_budget, (jnp.array([4.0, 3.0, 2.0]), jnp.array([4.5, 2.5, 2.2]), 1.0)


def ALT_ARGS():
    return [(jnp.array([4.0, 3.0, 2.0]), jnp.array([3.5, 3.1, 1.9]), 0.5)]
