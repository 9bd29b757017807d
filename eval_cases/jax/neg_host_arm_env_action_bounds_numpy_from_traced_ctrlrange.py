"""Source: https://github.com/google-deepmind/mujoco/issues/1291 (the answer: take the bounds from the host-side model, whose fields are NumPy arrays and stay concrete under `jax.jit`). Here the control range is a module-level NumPy constant of the host model, and the jitted step only reads traced dynamics parameters."""
import jax
import jax.numpy as jnp
import numpy as np

HOST_CTRLRANGE = np.array([[-1.0, 1.0], [-0.5, 0.5]], dtype=np.float32)


def action_bounds():
    return HOST_CTRLRANGE[:, 0], HOST_CTRLRANGE[:, 1]


@jax.jit
def env_step(model, qpos, qvel, action):
    low, high = action_bounds()
    torque = jnp.clip(action, low, high) * model["gear"]
    qacc = torque - model["damping"] * qvel
    qvel = qvel + 0.01 * qacc
    return qpos + 0.01 * qvel, qvel


# --- oracle ---
def ENTRY():
    model = {"gear": jnp.array([2.0, 1.0]), "damping": jnp.array([0.1, 0.2])}
    return env_step, (model, jnp.zeros(2), jnp.zeros(2), jnp.array([1.5, -0.2]))
