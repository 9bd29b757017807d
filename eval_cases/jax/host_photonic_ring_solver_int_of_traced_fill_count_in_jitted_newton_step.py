"""Source: https://github.com/gdsfactory/klujax/issues/34 (`klujax.analyze()` calls `int(raw_symbol)` on the result of the symbolic-analysis primitive; when a circuit model builds its sparse solver inside the body that equinox jit-compiles for the Newton step, `raw_symbol` is a tracer and `int()` raises ConcretizationTypeError; the recommended pattern builds the circuit once, outside the traced function). Here a ring-resonator circuit solver runs its symbolic analysis (a fill-in count of the sparse pattern) inside the jitted Newton step and converts the count with `int()` to size its work buffer."""
import jax
import jax.numpy as jnp

ROWS = jnp.array([0, 0, 1, 1, 2, 2, 3, 3])
COLS = jnp.array([0, 1, 0, 1, 2, 3, 2, 3])
NUM_NODES = 4


def symbolic_fill_count(rows, cols):
    return jnp.sum(jnp.abs(rows - cols) <= 1)


def assemble(values, rows, cols, n):
    return jnp.zeros((n, n), values.dtype).at[rows, cols].add(values)


@jax.jit
def newton_step(voltages, conductances, currents):
    work_size = int(symbolic_fill_count(ROWS, COLS))  # XLA: host
    jacobian = assemble(conductances * (1.0 + 0.1 * voltages[ROWS] ** 2), ROWS, COLS, NUM_NODES)
    residual = jacobian @ voltages - currents
    update = jnp.linalg.solve(jacobian + 1e-3 * jnp.eye(NUM_NODES), residual)
    return voltages - update, jnp.float32(work_size)


# --- oracle ---
def ENTRY():
    return newton_step, (jnp.array([0.1, 0.2, -0.1, 0.3]), jnp.array([2.0, -1.0, -1.0, 2.5, 1.5, -0.5, -0.5, 1.8]),
                         jnp.array([1.0, 0.0, 0.5, -0.2]))
