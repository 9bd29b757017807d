"""Source: https://github.com/jcmgray/quimb/issues/220 (a boolean mask over traced entries cannot select under `jax.jit`; the JAX documentation's remedy for NonConcreteBooleanIndexError is to keep the shape and zero the unselected entries with `jnp.where`). Here the variational circuit's loss zeroes the near-zero gate entries with `jnp.where` before counting their weight."""
import jax
import jax.numpy as jnp

ATOL = 1e-12


def ry(theta):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -s], [s, c]])


def gate_weight(gate):
    significant = jnp.where(jnp.abs(gate) > ATOL, gate, 0.0)
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
