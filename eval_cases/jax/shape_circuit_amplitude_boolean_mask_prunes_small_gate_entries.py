"""Source: https://github.com/jcmgray/quimb/issues/220 ("`qtn.Circuit.amplitude()` does not work with `jax.jit`": inside a jitted optimisation step, the amplitude computation simplifies the gate tensors with a boolean mask over their (traced) entries and raises NonConcreteBooleanIndexError, "Array boolean indices must be concrete; got ShapedArray(bool[2,2])"). Here a two-qubit variational circuit computes the amplitude of |11> inside a jitted loss, and drops near-zero entries of each single-qubit gate with a boolean mask before counting their weight."""
import jax
import jax.numpy as jnp

ATOL = 1e-12


def ry(theta):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -s], [s, c]])


def gate_weight(gate):
    significant = gate[jnp.abs(gate) > ATOL]  # XLA: shape
    return jnp.sum(significant ** 2)


@jax.jit
def loss(params):
    g0, g1 = ry(params[0]), ry(params[1])
    state = jnp.kron(g0, g1) @ jnp.array([1.0, 0.0, 0.0, 0.0])
    norm = gate_weight(g0) * gate_weight(g1) / 4.0
    return 1.0 - jnp.abs(state[3]) ** 2 * norm


# --- oracle ---
def ENTRY():
    return loss, (jnp.array([0.3, 1.2]),)
