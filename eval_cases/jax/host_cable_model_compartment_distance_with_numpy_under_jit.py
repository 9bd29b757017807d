"""Source: https://github.com/jaxleyverse/jaxley/pull/603 ("Allow `.distance` to be jitted": `np.sqrt(np.sum(param * np.asarray([3.0, 4.0])))` inside `jax.jit` fails because NumPy converts the traced parameter to an array; the fix uses `jnp.sqrt(jnp.sum(...))`). Here a jitted loss of a neuron cable model computes the path distance between compartments from traced, trainable compartment lengths with NumPy reductions. (Passive cable model fitted to a target voltage attenuation profile.)"""
import jax
import jax.numpy as jnp
import numpy as np


def path_distance(lengths, scale):
    return np.sqrt(np.sum(lengths * np.asarray(scale)))  # XLA: host


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
