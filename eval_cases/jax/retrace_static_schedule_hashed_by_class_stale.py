"""Source: https://github.com/jax-ml/jax/issues/9024 (a pytree object passed as a static argument is cached by its hash and equality; when these depend only on the class, changing the object's data does not trigger a cache miss and the jitted function keeps the old values)."""
from functools import partial

import jax
import jax.numpy as jnp


class WarmupSchedule:
    def __init__(self, peak_lr, warmup_steps):
        self.peak_lr = peak_lr
        self.warmup_steps = warmup_steps

    def __hash__(self):
        return hash(type(self).__name__)

    def __eq__(self, other):
        return type(self) is type(other)

    def __call__(self, step):
        return self.peak_lr * jnp.minimum(1.0, (step + 1) / self.warmup_steps)


@partial(jax.jit, static_argnums=0)
def sgd_update(schedule, step, w, g):
    return w - schedule(step) * g  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return sgd_update, (WarmupSchedule(0.1, 10), jnp.float32(3.0), jnp.ones(3), jnp.ones(3))


def ALT_ARGS():
    return [(WarmupSchedule(0.5, 2), jnp.float32(3.0), jnp.ones(3), jnp.ones(3))]
