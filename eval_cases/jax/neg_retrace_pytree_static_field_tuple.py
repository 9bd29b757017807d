"""Source: https://github.com/jax-ml/jax/issues/7826 (the fix: keep pytree aux data hashable and comparable by value, a tuple instead of an array, so an equal model built again hits the cache)."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Model:
    def __init__(self, weights, feature_scale):
        self.weights = weights
        self.feature_scale = tuple(feature_scale)

    def tree_flatten(self):
        return (self.weights,), self.feature_scale

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0], aux)


@jax.jit
def predict(model, x):
    return (x * jnp.asarray(model.feature_scale)) @ model.weights


# --- oracle ---
def ENTRY():
    return predict, (Model(jnp.ones((3, 2)), (1.0, 1.0, 1.0)), jnp.arange(6.0).reshape(2, 3))


def ALT_ARGS():
    return [(Model(jnp.ones((3, 2)), (1.0, 1.0, 1.0)), jnp.arange(6.0).reshape(2, 3))]
