"""Source: https://github.com/google-deepmind/mujoco/issues/1256 ("`mjx.device_get_into` not working with `jax.jit`": copying the device state into the host `MjData` for rendering from inside a jitted function fails, because the host structure's setters receive tracers instead of numbers; without `jax.jit` it works). Here a jitted cheetah step copies the new joint positions into a preallocated NumPy render buffer before returning."""
import jax
import jax.numpy as jnp
import numpy as np

RENDER_QPOS = np.zeros(3, dtype=np.float32)


@jax.jit
def step_and_sync(qpos, qvel, ctrl):
    qvel = qvel + 0.01 * (ctrl - 0.1 * qvel)
    qpos = qpos + 0.01 * qvel
    RENDER_QPOS[:] = qpos  # XLA: host
    return qpos, qvel


# --- oracle ---
def ENTRY():
    return step_and_sync, (jnp.zeros(3), jnp.array([0.1, 0.0, -0.2]), jnp.array([1.0, 0.5, -0.5]))
