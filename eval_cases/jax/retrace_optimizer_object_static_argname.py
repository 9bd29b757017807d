"""Source: https://github.com/google-deepmind/optax/issues/353 ("Add __hash__ function to avoid unnecessary recompilations": an optimizer passed as a static argument hashes by identity, so each train() that builds a new but equal optimizer recompiles the step)."""
from functools import partial

import jax
import jax.numpy as jnp


class Momentum:
    def __init__(self, lr, beta):
        self.lr = lr
        self.beta = beta

    def update(self, grads, velocity):
        velocity = self.beta * velocity + grads
        return -self.lr * velocity, velocity


@partial(jax.jit, static_argnames=("optimizer",))
def train_step(params, velocity, grads, optimizer):  # XLA: retrace
    step, velocity = optimizer.update(grads, velocity)
    return params + step, velocity


# --- oracle ---
def ENTRY():
    return train_step, (jnp.ones(3), jnp.zeros(3), jnp.full(3, 0.2), Momentum(0.1, 0.9))


def ALT_ARGS():
    return [(jnp.ones(3), jnp.zeros(3), jnp.full(3, 0.3), Momentum(0.1, 0.9))]
