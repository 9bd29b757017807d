"""A linear warm-up learning rate computed in the training loop from the base rate and warm-up
length that `main` passes in as Python numbers; the rate reaches the compiled update as a new
Python float every step, so each step traces and compiles again until the warm-up ends.

Rebuilt from microsoft/AirSim-Drone-Racing-VAE-Imitation#10
(https://github.com/microsoft/AirSim-Drone-Racing-VAE-Imitation/issues/10): a Python value
derived from the epoch loop is passed to the tf.function `train` "instead of tensors ... every
time the value changes, a new graph will be generated".
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def apply_update(weights, grads, lr):
    return [w - lr * g for w, g in zip(weights, grads)]


def train(weights, grad_batches, base_lr, warmup_steps):
    for step, grads in enumerate(grad_batches):
        lr = base_lr * min(1.0, (step + 1) / warmup_steps)
        weights = apply_update(weights, grads, lr)  # XLA: retrace
    return weights


def main(weights, grad_batches):
    return train(weights, grad_batches, 0.1, 4)


# --- oracle ---
WRAP = False


def _grads(n):
    return [[tf.constant([0.5, -0.5]) * float(i + 1)] for i in range(n)]


def ENTRY():
    return main, ([tf.constant([1.0, 2.0])], _grads(2))


def ALT_ARGS():
    return [([tf.constant([2.0, 1.0])], _grads(3))]
