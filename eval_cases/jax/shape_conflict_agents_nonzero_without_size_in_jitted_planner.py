"""Source: https://github.com/omron-sinicx/jaxmapp/pull/4 ("Fix `jax.numpy.nonzero` issue", for issue #3: the multi-agent path planner called `jnp.nonzero` on a collision mask inside jitted planning code, whose output size depends on the data; the fix gives `nonzero` a static `size` with a fill value). Here a jitted prioritized planner finds the agents in collision with `jnp.nonzero` and re-plans them."""
import jax
import jax.numpy as jnp


@jax.jit
def replan_conflicts(positions, goals, radius):
    d = jnp.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    d = d + jnp.eye(positions.shape[0]) * 1e3
    in_conflict = jnp.any(d < 2 * radius, axis=1)
    (idx,) = jnp.nonzero(in_conflict)  # XLA: shape
    step = 0.1 * (goals - positions)
    detour = jnp.stack([-step[:, 1], step[:, 0]], axis=1)
    return positions.at[idx].add(detour[idx]) + step


# --- oracle ---
def ENTRY():
    pos = jnp.array([[0.0, 0.0], [0.05, 0.0], [1.0, 1.0], [2.0, 0.5]])
    goals = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 2.0], [0.0, 0.5]])
    return replan_conflicts, (pos, goals, 0.1)
