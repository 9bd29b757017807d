"""Source: https://github.com/gdsfactory/klujax/issues/34 (the fix the report recommends: run the symbolic analysis once, outside the traced function, and let the jit-compiled Newton step reuse its result). Here the fill-in count is computed eagerly at import, so the jitted step only closes over a Python int."""
import jax
import jax.numpy as jnp

ROWS = jnp.array([0, 0, 1, 1, 2, 2, 3, 3])
COLS = jnp.array([0, 1, 0, 1, 2, 3, 2, 3])
NUM_NODES = 4


def symbolic_fill_count(rows, cols):
    return jnp.sum(jnp.abs(rows - cols) <= 1)


def assemble(values, rows, cols, n):
    return jnp.zeros((n, n), values.dtype).at[rows, cols].add(values)


WORK_SIZE = int(symbolic_fill_count(ROWS, COLS))


@jax.jit
def newton_step(voltages, conductances, currents):
    jacobian = assemble(conductances * (1.0 + 0.1 * voltages[ROWS] ** 2), ROWS, COLS, NUM_NODES)
    residual = jacobian @ voltages - currents
    update = jnp.linalg.solve(jacobian + 1e-3 * jnp.eye(NUM_NODES), residual)
    return voltages - update, jnp.float32(WORK_SIZE)


# --- oracle ---
def ENTRY():
    return newton_step, (jnp.array([0.1, 0.2, -0.1, 0.3]), jnp.array([2.0, -1.0, -1.0, 2.5, 1.5, -0.5, -0.5, 1.8]),
                         jnp.array([1.0, 0.0, 0.5, -0.2]))
