"""Source: https://github.com/jax-ml/jax/issues/3654 (fixed by jax PR #3656, "improve concreteness error message for nn.one_hot": `jit(one_hot)(3, 5)` fails because `num_classes` is a traced argument of the jitted function; the error now says "Abstract tracer value encountered where concrete value is expected (in jax.nn.one_hot argument `num_classes`)" and suggests `static_argnums`). This is that fix: `num_classes` is a static argument of the jitted step. Here a label-smoothed cross-entropy evaluation step takes the number of classes as an argument of the jitted function."""
from functools import partial

import jax
import jax.numpy as jnp


def smoothed_targets(labels, num_classes, smoothing):
    onehot = jax.nn.one_hot(labels, num_classes)
    return onehot * (1.0 - smoothing) + smoothing / num_classes


@partial(jax.jit, static_argnames=("num_classes",))
def eval_step(params, images, labels, num_classes):
    logits = images.reshape(images.shape[0], -1) @ params["w"] + params["b"]
    targets = smoothed_targets(labels, num_classes, 0.1)
    loss = -jnp.mean(jnp.sum(targets * jax.nn.log_softmax(logits), axis=-1))
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    return loss, accuracy


# --- oracle ---
def ENTRY():
    params = {"w": jnp.linspace(-0.1, 0.1, 64 * 5).reshape(64, 5), "b": jnp.zeros(5)}
    images = jnp.linspace(0.0, 1.0, 6 * 8 * 8).reshape(6, 8, 8)
    labels = jnp.array([0, 1, 2, 3, 4, 1])
    return eval_step, (params, images, labels, 5)
