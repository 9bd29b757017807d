"""Source: https://github.com/google/flax/issues/5548 ("`nnx.jit` recompiles every epoch when recreating `nnx.Module / nnx.Optimizer`": a GAN's discriminator and its `nnx.Optimizer(dis, optax.adam(...))` are rebuilt at the start of every epoch and passed to the jitted `train_one_epoch`; although the parameter shapes are identical, it is retraced and recompiled every epoch until the GPU runs out of memory; when they are not recreated the recompilation disappears). Here the discriminator's Adam optimizer, a pair of closures built by a factory, is rebuilt every epoch and passed to the jitted epoch as a static argument."""
from functools import partial
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class GradientTransformation(NamedTuple):
    init: Callable
    update: Callable


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return (zeros, zeros, jnp.zeros((), jnp.int32))

    def update(grads, state):
        m, v, t = state
        t = t + 1
        m = jax.tree_util.tree_map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
        v = jax.tree_util.tree_map(lambda a, g: b2 * a + (1 - b2) * g ** 2, v, grads)
        upd = jax.tree_util.tree_map(lambda a, b: -lr * a / (jnp.sqrt(b) + eps), m, v)
        return upd, (m, v, t)

    return GradientTransformation(init, update)


def dis_loss(dis_params, real, fake):
    d_real = jax.nn.sigmoid(real @ dis_params)
    d_fake = jax.nn.sigmoid(fake @ dis_params)
    return -jnp.mean(jnp.log(d_real + 1e-6) + jnp.log(1.0 - d_fake + 1e-6))


@partial(jax.jit, static_argnums=(4,))
def train_one_epoch(dis_params, dis_state, real, fake, dis_opt):
    def body(carry, batch):
        p, s = carry
        r, f = batch
        loss, g = jax.value_and_grad(dis_loss)(p, r, f)
        upd, s = dis_opt.update(g, s)
        return (jax.tree_util.tree_map(jnp.add, p, upd), s), loss

    (dis_params, dis_state), losses = jax.lax.scan(body, (dis_params, dis_state), (real, fake))
    return dis_params, dis_state, losses.mean()


def run_epoch(real, fake):
    dis_params = jnp.full((3, 1), 0.1)
    dis_opt = adam(1e-3)
    dis_state = dis_opt.init(dis_params)
    return train_one_epoch(dis_params, dis_state, real, fake, dis_opt)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    real = jnp.linspace(-1.0, 1.0, 24).reshape(2, 4, 3)
    return run_epoch, (real, -real)


def ALT_ARGS():
    real = jnp.linspace(-0.5, 1.5, 24).reshape(2, 4, 3)
    return [(real, -real)]
