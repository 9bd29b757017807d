"""Source: https://github.com/codestella/putting-nerf-on-a-diet/pull/11 (the fix: "Fix invalid Jax Type on single_step": the NeRF training step `single_step` was jitted with the Flax model and `N_samples` as ordinary arguments; `N_samples` sizes the stratified samples along each ray, so tracing it failed with a ConcretizationTypeError; the fix marks both static with `static_argnums=[6, 7]`). Here the number of samples per ray is a static argument of the jitted train step."""
import jax
import jax.numpy as jnp


def sample_along_rays(key, origins, directions, near, far, n_samples):
    t = jnp.linspace(near, far, n_samples)
    jitter = jax.random.uniform(key, (origins.shape[0], n_samples)) * (far - near) / n_samples
    t = t[None, :] + jitter
    points = origins[:, None, :] + directions[:, None, :] * t[..., None]
    return points, t


def radiance_field(params, points):
    h = jnp.tanh(points @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def volume_render(raw, t):
    rgb = jax.nn.sigmoid(raw[..., :3])
    sigma = jax.nn.relu(raw[..., 3])
    delta = jnp.concatenate([t[:, 1:] - t[:, :-1], jnp.full_like(t[:, :1], 1e3)], axis=-1)
    alpha = 1.0 - jnp.exp(-sigma * delta)
    trans = jnp.cumprod(jnp.concatenate([jnp.ones_like(alpha[:, :1]), 1.0 - alpha[:, :-1] + 1e-10], axis=-1), axis=-1)
    weights = alpha * trans
    return jnp.sum(weights[..., None] * rgb, axis=1)


def single_step_wojit(key, params, origins, directions, target_rgb, lr, n_samples):
    def loss_fn(p):
        points, t = sample_along_rays(key, origins, directions, 2.0, 6.0, n_samples)
        rgb = volume_render(radiance_field(p, points), t)
        return jnp.mean((rgb - target_rgb) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, loss


single_step = jax.jit(single_step_wojit, static_argnums=(6,))


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    k = jax.random.PRNGKey(0)
    params = {"w1": jnp.full((3, 16), 0.1), "b1": jnp.zeros(16), "w2": jnp.full((16, 4), 0.05), "b2": jnp.zeros(4)}
    origins = jnp.zeros((8, 3))
    directions = jnp.tile(jnp.array([0.0, 0.0, 1.0]), (8, 1))
    target = jnp.full((8, 3), 0.5)
    return single_step, (k, params, origins, directions, target, 0.1, 16)
