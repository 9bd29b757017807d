"""Source: https://github.com/patrick-kidger/equinox/issues/686 ("Why is this function recompiling?": a trajectory module stores `self.forward = jax.jit(fk_fn)` and is re-initialized before the second optimization run; the new jitted function is a new static object, so the jitted step compiles again). Here the kinematics helper is a static argument of the jitted step and is rebuilt for every optimization run."""
from functools import partial

import jax
import jax.numpy as jnp


def forward_kinematics(q):
    return jnp.stack([jnp.cos(q[..., 0]) + jnp.cos(q[..., 0] + q[..., 1]),
                      jnp.sin(q[..., 0]) + jnp.sin(q[..., 0] + q[..., 1])], axis=-1)


class Kinematics:
    def __init__(self, fk_fn):
        self.forward = jax.jit(fk_fn)


@partial(jax.jit, static_argnums=0)
def step(kin, params, t, target):
    def loss(p):
        q = t[:, None] * p["slope"] + p["offset"]
        return jnp.mean((kin.forward(q) - target) ** 2)

    val, grads = jax.value_and_grad(loss)(params)
    return val, jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


def optimize(params, t, target):
    kin = Kinematics(forward_kinematics)
    for _ in range(2):
        val, params = step(kin, params, t, target)  # XLA: retrace
    return val, params


# --- oracle ---
WRAP = False


def ENTRY():
    params = {"slope": jnp.array([0.5, -0.3]), "offset": jnp.array([0.1, 0.2])}
    t = jnp.linspace(0.0, 1.0, 4)
    return optimize, (params, t, jnp.ones((4, 2)))


def ALT_ARGS():
    params = {"slope": jnp.array([0.4, -0.2]), "offset": jnp.array([0.0, 0.1])}
    t = jnp.linspace(0.0, 1.0, 4)
    return [(params, t, jnp.ones((4, 2)))]
