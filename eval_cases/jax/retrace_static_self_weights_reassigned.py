"""Source: https://github.com/jax-ml/jax/issues/9023 ("Function in class not recompiled after updating": a method jitted with `self` static keeps the attribute value of its first call, because the object's identity hash does not change when an attribute does; the same bug in PlasmaControl/DESC#310)."""
from functools import partial

import jax
import jax.numpy as jnp


class LinearModel:
    def __init__(self, weights):
        self.weights = weights

    def load_weights(self, weights):
        self.weights = weights

    @partial(jax.jit, static_argnums=0)
    def predict(self, x):
        return x @ self.weights  # XLA: retrace


def evaluate_checkpoints(x, checkpoints):
    model = LinearModel(checkpoints[0])
    outs = []
    for w in checkpoints:
        model.load_weights(w)
        outs.append(model.predict(x))
    return outs


# --- oracle ---
WRAP = False


def ENTRY():
    return evaluate_checkpoints, (jnp.ones((2, 3)), [jnp.ones((3, 2)), 2.0 * jnp.ones((3, 2))])
