"""The same warm-up loop, but `main` passes the base learning rate as a tensor: the rate the loop
computes is a scalar tensor at every step, one trace and one compilation.

Fix for microsoft/AirSim-Drone-Racing-VAE-Imitation#10
(https://github.com/microsoft/AirSim-Drone-Racing-VAE-Imitation/issues/10): the value derived
from the loop changes, but what reaches the tf.function is a tensor of a fixed shape and dtype.
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def apply_update(weights, grads, lr):
    return [w - lr * g for w, g in zip(weights, grads)]


def train(weights, grad_batches, base_lr, warmup_steps):
    for step, grads in enumerate(grad_batches):
        lr = base_lr * min(1.0, (step + 1) / warmup_steps)
        weights = apply_update(weights, grads, lr)
    return weights


def main(weights, grad_batches):
    return train(weights, grad_batches, tf.constant(0.1), 4)


# --- oracle ---
WRAP = False


def _grads(n):
    return [[tf.constant([0.5, -0.5]) * float(i + 1)] for i in range(n)]


def ENTRY():
    return main, ([tf.constant([1.0, 2.0])], _grads(2))


def ALT_ARGS():
    return [([tf.constant([2.0, 1.0])], _grads(3))]
