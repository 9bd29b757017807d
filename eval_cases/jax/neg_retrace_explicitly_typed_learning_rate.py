"""Source: https://github.com/jax-ml/jax/issues/4274 (the recommended fix for weak-type recompiles: create scalars such as the learning rate that are passed to a jitted step as typed arrays (np.float32 / jnp.float32), so every call has the same abstract type)."""
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(params, grads, lr):
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


# --- oracle ---
def ENTRY():
    params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
    grads = {"w": jnp.full((2, 2), 0.5), "b": jnp.ones(2)}
    return sgd_step, (params, grads, jnp.float32(0.1))


def ALT_ARGS():
    params = {"w": jnp.ones((2, 2)) * 0.9, "b": jnp.zeros(2)}
    grads = {"w": jnp.full((2, 2), 0.25), "b": jnp.ones(2)}
    return [(params, grads, jnp.float32(0.05))]
