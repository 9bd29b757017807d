"""Source: https://github.com/google-deepmind/mujoco/issues/1291 ("loading `mjx_model.actuator_ctrlrange` is not JITable": an MJX environment built its action space from `mjx_model.actuator_ctrlrange`, a JAX array that is traced under `jax.jit`, and materialising it as a NumPy box raised a tracer conversion error; the answer was to read the bounds from the host-side `MjModel`, whose fields are NumPy arrays). Here a jitted arm-environment step clips its action to bounds converted with `np.asarray` from the traced model parameters."""
import jax
import jax.numpy as jnp
import numpy as np


def action_bounds(model):
    ctrlrange = np.asarray(model["actuator_ctrlrange"], dtype=np.float32)  # XLA: host
    return ctrlrange[:, 0], ctrlrange[:, 1]


@jax.jit
def env_step(model, qpos, qvel, action):
    low, high = action_bounds(model)
    torque = jnp.clip(action, low, high) * model["gear"]
    qacc = torque - model["damping"] * qvel
    qvel = qvel + 0.01 * qacc
    return qpos + 0.01 * qvel, qvel


# --- oracle ---
def ENTRY():
    model = {"actuator_ctrlrange": jnp.array([[-1.0, 1.0], [-0.5, 0.5]]), "gear": jnp.array([2.0, 1.0]),
             "damping": jnp.array([0.1, 0.2])}
    return env_step, (model, jnp.zeros(2), jnp.zeros(2), jnp.array([1.5, -0.2]))
