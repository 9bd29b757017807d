"""Source: https://github.com/jax-ml/jax/issues/9023 (the fix from the JAX FAQ "How to use jit with methods?": jit a static helper and pass the attribute as a traced argument, so new weights are seen without a recompile)."""
import jax
import jax.numpy as jnp


@jax.jit
def _predict(weights, x):
    return x @ weights


class LinearModel:
    def __init__(self, weights):
        self.weights = weights

    def load_weights(self, weights):
        self.weights = weights

    def predict(self, x):
        return _predict(self.weights, x)


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
