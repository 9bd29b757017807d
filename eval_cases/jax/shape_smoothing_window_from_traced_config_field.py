"""Source: https://github.com/brentyi/egoallo/issues/17 (inference fails in the jitted, vmapped guidance optimizer: `TypeError: Shapes must be 1D sequences of concrete values of integer type, got (Traced<~int32[]>,)`, "this concrete value was not available in Python because it depends on the value of the argument guidance_params[12]": an integer option of a parameter dataclass registered as a pytree became a traced leaf). Here the guidance parameters are a dataclass pytree whose smoothing window is used as a shape."""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class GuidanceParams:
    smoothness_weight: float
    foot_contact_weight: float
    window: int


@jax.jit
def guidance_loss(traj, contacts, params: GuidanceParams):
    kernel = jnp.ones((params.window,)) / params.window  # XLA: shape
    smoothed = jax.vmap(lambda c: jnp.convolve(c, kernel, mode="same"), in_axes=1, out_axes=1)(traj)
    smooth_term = jnp.mean((traj - smoothed) ** 2)
    foot_vel = jnp.diff(traj[:, :3], axis=0)
    contact_term = jnp.mean(contacts[1:, None] * foot_vel ** 2)
    return params.smoothness_weight * smooth_term + params.foot_contact_weight * contact_term


# --- oracle ---
def ENTRY():
    traj = jnp.sin(jnp.linspace(0.0, 3.0, 16 * 6)).reshape(16, 6)
    contacts = (jnp.arange(16) % 3 == 0).astype(jnp.float32)
    return guidance_loss, (traj, contacts, GuidanceParams(1.0, 0.5, 5))
