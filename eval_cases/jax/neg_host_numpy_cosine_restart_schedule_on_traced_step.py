"""Source: https://github.com/netket/netket/issues/908 (the schedule written with `jax.numpy`, as optax schedules are, so it traces with the step count inside the jitted update)."""
import jax
import jax.numpy as jnp

ETA = 0.1
RESTART = 100


def schedule(n):
    return (1 + jnp.cos(jnp.pi * (n % RESTART) / RESTART)) * ETA


@jax.jit
def update(params, grads, step):
    lr = schedule(step)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), step + 1


# --- oracle ---


def ENTRY():
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = {"w": jnp.array([0.1, -0.2, 0.3]), "b": jnp.float32(0.05)}
    return update, (params, grads, jnp.int32(7))
