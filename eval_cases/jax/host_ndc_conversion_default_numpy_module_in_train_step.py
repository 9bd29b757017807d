"""Source: https://github.com/google-research/multinerf/pull/62 ("Fix TracerArrayConversionError when Config.cast_rays_in_train_step=True": rays are then cast inside the jitted `train_step`, so the array module must be `jax.numpy`, but `xnp` was not passed on to `convert_to_ndc`, whose default is NumPy, and the NumPy call on traced rays raised TracerArrayConversionError; the fix passes `xnp=xnp`). Here a forward-facing NeRF casts its rays in the jitted training step and converts them to normalized device coordinates."""
import jax
import jax.numpy as jnp
import numpy as np


def convert_to_ndc(origins, directions, focal, width, height, near=1.0, xnp=np):
    t = -(near + origins[..., 2]) / directions[..., 2]
    origins = origins + t[..., None] * directions
    ox, oy, oz = origins[..., 0], origins[..., 1], origins[..., 2]
    dx, dy, dz = directions[..., 0], directions[..., 1], directions[..., 2]
    o_ndc = xnp.stack([-(2 * focal / width) * ox / oz, -(2 * focal / height) * oy / oz, 1 + 2 * near / oz], -1)  # XLA: host
    d_ndc = xnp.stack([-(2 * focal / width) * (dx / dz - ox / oz),
                       -(2 * focal / height) * (dy / dz - oy / oz),
                       -2 * near / oz], -1)
    return o_ndc, d_ndc


def cast_rays(pixels, camtoworld, focal, width, height, xnp=np):
    x = (pixels[..., 0] - 0.5 * width) / focal
    y = -(pixels[..., 1] - 0.5 * height) / focal
    directions = xnp.stack([x, y, -xnp.ones_like(x)], -1) @ camtoworld[:3, :3].T
    origins = xnp.broadcast_to(camtoworld[:3, -1], directions.shape)
    return convert_to_ndc(origins, directions, focal, width, height)


def render(params, origins, directions):
    t = jnp.linspace(0.0, 1.0, 8)
    points = origins[..., None, :] + t[:, None] * directions[..., None, :]
    density = jax.nn.softplus(points @ params["w"])[..., 0]
    return jnp.sum(jax.nn.sigmoid(density), axis=-1)


@jax.jit
def train_step(params, pixels, camtoworld, target):
    origins, directions = cast_rays(pixels, camtoworld, 20.0, 32, 24, xnp=jnp)

    def loss_fn(p):
        return jnp.mean((render(p, origins, directions) - target) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return jax.tree_util.tree_map(lambda p, g: p - 1e-2 * g, params, grads), loss


# --- oracle ---
def ENTRY():
    params = {"w": jnp.full((3, 1), 0.1)}
    pixels = jnp.stack(jnp.meshgrid(jnp.arange(4.0) * 8, jnp.arange(3.0) * 8), -1).reshape(-1, 2)
    camtoworld = jnp.concatenate([jnp.eye(3), jnp.array([[0.1], [0.2], [0.5]])], axis=1)
    return train_step, (params, pixels, camtoworld, jnp.full((12,), 0.5))
