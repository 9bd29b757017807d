"""Source: https://github.com/netket/netket/issues/908 ("Can't use optimiser schedules": an SGD-with-restarts schedule written with NumPy, `(1 + np.cos(pi * (n % restart) / restart)) * eta`, is called with the step count inside the jitted update, where `n` is a tracer)."""
import jax
import jax.numpy as jnp
import numpy as np

ETA = 0.1
RESTART = 100


def schedule(n):
    return (1 + np.cos(np.pi * (n % RESTART) / RESTART)) * ETA  # XLA: host


@jax.jit
def update(params, grads, step):
    lr = schedule(step)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), step + 1


# --- oracle ---


def ENTRY():
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = {"w": jnp.array([0.1, -0.2, 0.3]), "b": jnp.float32(0.05)}
    return update, (params, grads, jnp.int32(7))
