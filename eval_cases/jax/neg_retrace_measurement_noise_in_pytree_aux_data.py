"""Source: https://github.com/ryan112358/mbi/pull/196 ("Make stddev and lipschitz dynamic pytree leaves": with `stddev` in the aux data, measurements differing only in noise level recompiled; the fix makes `stddev` a dynamic (traced) leaf). Here the fixed measurement pytree: the noise scale is a child leaf, so a new privacy budget reuses the compiled marginal loss."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class LinearMeasurement:
    def __init__(self, noisy_values, stddev):
        self.noisy_values = noisy_values
        self.stddev = stddev

    def tree_flatten(self):
        return (self.noisy_values, self.stddev), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@jax.jit
def marginal_loss(marginal, measurement):
    diff = marginal - measurement.noisy_values
    return jnp.sum(diff ** 2) / (2.0 * measurement.stddev ** 2)


def loss_for_budget(marginal, noisy_values, epsilon):
    measurement = LinearMeasurement(noisy_values, stddev=jnp.float32(1.0 / epsilon))
    return marginal_loss(marginal, measurement)


# --- oracle ---
WRAP = False


def ENTRY():
    return loss_for_budget, (jnp.array([4.0, 3.0, 2.0]), jnp.array([4.5, 2.5, 2.2]), 1.0)


def ALT_ARGS():
    return [(jnp.array([4.0, 3.0, 2.0]), jnp.array([3.5, 3.1, 1.9]), 0.5)]
