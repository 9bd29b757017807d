"""Source: https://github.com/google-deepmind/optax/issues/353 (the fix discussed there: give the static optimizer value-based equality and hash (a frozen dataclass), so an equal optimizer built again hits the compilation cache)."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Momentum:
    lr: float
    beta: float

    def update(self, grads, velocity):
        velocity = self.beta * velocity + grads
        return -self.lr * velocity, velocity


@partial(jax.jit, static_argnames=("optimizer",))
def train_step(params, velocity, grads, optimizer):
    step, velocity = optimizer.update(grads, velocity)
    return params + step, velocity


# --- oracle ---
def ENTRY():
    return train_step, (jnp.ones(3), jnp.zeros(3), jnp.full(3, 0.2), Momentum(0.1, 0.9))


def ALT_ARGS():
    return [(jnp.ones(3), jnp.zeros(3), jnp.full(3, 0.3), Momentum(0.1, 0.9))]
