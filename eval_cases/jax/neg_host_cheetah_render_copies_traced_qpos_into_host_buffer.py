"""Source: https://github.com/google-deepmind/mujoco/issues/1256 (the host copy belongs outside `jax.jit`: the jitted step returns the state and the caller copies concrete arrays into the render buffer). Here the jitted step only computes, and an eager wrapper syncs the NumPy render buffer from its result."""
import jax
import jax.numpy as jnp
import numpy as np

RENDER_QPOS = np.zeros(3, dtype=np.float32)


@jax.jit
def physics_step(qpos, qvel, ctrl):
    qvel = qvel + 0.01 * (ctrl - 0.1 * qvel)
    qpos = qpos + 0.01 * qvel
    return qpos, qvel


def step_and_sync(qpos, qvel, ctrl):
    qpos, qvel = physics_step(qpos, qvel, ctrl)
    RENDER_QPOS[:] = np.asarray(qpos)
    return qpos, qvel


# --- oracle ---
WRAP = False


def ENTRY():
    return step_and_sync, (jnp.zeros(3), jnp.array([0.1, 0.0, -0.2]), jnp.array([1.0, 0.5, -0.5]))
