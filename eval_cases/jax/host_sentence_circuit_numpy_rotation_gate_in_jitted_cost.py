"""Source: https://github.com/Quantinuum/qnlp_lorenz_etal_2021_resources/issues/2 (a jitted `get_cost` over a sentence circuit fails with TracerArrayConversionError: the rotation gate's `array` property builds its matrix with NumPy from the traced angle). Here a two-qubit sentence classifier builds its Ry gates with NumPy inside the jitted binary cross-entropy cost."""
import jax
import jax.numpy as jnp
import numpy as np


def ry_gate(theta):
    half = np.pi * theta  # XLA: host
    return np.array([[np.cos(half), -np.sin(half)], [np.sin(half), np.cos(half)]])


def sentence_state(params):
    zero = jnp.array([1.0, 0.0])
    word_a = jnp.asarray(ry_gate(params[0])) @ zero
    word_b = jnp.asarray(ry_gate(params[1])) @ zero
    return jnp.kron(word_a, word_b)


@jax.jit
def get_cost(params, labels):
    state = sentence_state(params)
    p_true = jnp.clip(state[0] ** 2 + state[1] ** 2, 1e-6, 1 - 1e-6)
    return -jnp.mean(labels * jnp.log(p_true) + (1 - labels) * jnp.log(1 - p_true))


# --- oracle ---
def ENTRY():
    return get_cost, (jnp.array([0.3, 0.7]), jnp.array([1.0, 0.0, 1.0]))
