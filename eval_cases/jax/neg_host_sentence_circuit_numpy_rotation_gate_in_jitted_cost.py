"""Source: https://github.com/Quantinuum/qnlp_lorenz_etal_2021_resources/issues/2 (a jitted `get_cost` over a sentence circuit; the fix is a gate whose matrix is built with jax.numpy from the traced angle). Here the two-qubit sentence classifier builds its Ry gates with jax.numpy inside the jitted binary cross-entropy cost."""
import jax
import jax.numpy as jnp


def ry_gate(theta):
    half = jnp.pi * theta
    return jnp.array([[jnp.cos(half), -jnp.sin(half)], [jnp.sin(half), jnp.cos(half)]])


def sentence_state(params):
    zero = jnp.array([1.0, 0.0])
    word_a = ry_gate(params[0]) @ zero
    word_b = ry_gate(params[1]) @ zero
    return jnp.kron(word_a, word_b)


@jax.jit
def get_cost(params, labels):
    state = sentence_state(params)
    p_true = jnp.clip(state[0] ** 2 + state[1] ** 2, 1e-6, 1 - 1e-6)
    return -jnp.mean(labels * jnp.log(p_true) + (1 - labels) * jnp.log(1 - p_true))


# --- oracle ---
def ENTRY():
    return get_cost, (jnp.array([0.3, 0.7]), jnp.array([1.0, 0.0, 1.0]))
