"""Source: https://github.com/jaxleyverse/jaxley/pull/603 (fix twin: the pull request replaces `np.sqrt(np.sum(...))` with `jnp.sqrt(jnp.sum(...))`, keeping the constant scale a NumPy array). The same jitted cable-model loss computes the path distance with `jax.numpy` reductions. (Passive cable model fitted to a target voltage attenuation profile.)"""
import jax
import jax.numpy as jnp
import numpy as np


def path_distance(lengths, scale):
    return jnp.sqrt(jnp.sum(lengths * np.asarray(scale)))


@jax.jit
def attenuation_loss(lengths, target, length_constant=100.0):
    dist = path_distance(lengths, [3.0, 4.0, 3.0, 4.0])
    depths = jnp.cumsum(lengths) / jnp.sum(lengths) * dist
    predicted = jnp.exp(-depths / length_constant)
    return jnp.mean((predicted - target) ** 2)


# --- oracle ---
def ENTRY():
    lengths = jnp.array([10.0, 20.0, 15.0, 5.0])
    target = jnp.array([0.95, 0.85, 0.8, 0.75])
    return attenuation_loss, (lengths, target)
