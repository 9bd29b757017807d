"""Source: https://github.com/omron-sinicx/jaxmapp/pull/4 ("Fix `jax.numpy.nonzero` issue"; the fix passes a static `size` equal to the number of agents and a `fill_value` that points past the array, so the indices have a fixed shape). Here the same jitted planner calls `jnp.nonzero(..., size=n, fill_value=n)` and drops the padded updates."""
import jax
import jax.numpy as jnp


@jax.jit
def replan_conflicts(positions, goals, radius):
    n = positions.shape[0]
    d = jnp.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    d = d + jnp.eye(n) * 1e3
    in_conflict = jnp.any(d < 2 * radius, axis=1)
    (idx,) = jnp.nonzero(in_conflict, size=n, fill_value=n)
    step = 0.1 * (goals - positions)
    detour = jnp.stack([-step[:, 1], step[:, 0]], axis=1)
    return positions.at[idx].add(detour.at[idx].get(mode="fill", fill_value=0.0), mode="drop") + step


# --- oracle ---
def ENTRY():
    pos = jnp.array([[0.0, 0.0], [0.05, 0.0], [1.0, 1.0], [2.0, 0.5]])
    goals = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 2.0], [0.0, 0.5]])
    return replan_conflicts, (pos, goals, 0.1)
