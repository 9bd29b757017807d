"""A loss weight decayed per epoch in the training loop and handed to a helper that passes it on
to the compiled loss: the Python float reaches the tf.function one call away, and every epoch
traces and compiles it again.

Rebuilt from tensorflow/tensorflow#34025 (https://github.com/tensorflow/tensorflow/issues/34025)
(a Python float passed to a compiled loss changes every epoch); here the value flows through a
helper, as in loss wrappers that scale an auxiliary term.
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def total_loss(main, aux, aux_weight):
    return tf.reduce_mean(main) + aux_weight * tf.reduce_mean(aux)


def combined(main, aux, aux_weight):
    return total_loss(main, aux, aux_weight)  # XLA: retrace


def run_epochs(main, aux, first_epoch, epochs):
    out = []
    for epoch in range(first_epoch, first_epoch + epochs):
        weight = 0.5 * 0.8 ** epoch
        out.append(combined(main, aux, weight))
    return out


# --- oracle ---
WRAP = False


def ENTRY():
    return run_epochs, (tf.constant([1.0, 2.0]), tf.constant([0.5, 0.25]), 0, 3)


def ALT_ARGS():
    return [(tf.constant([2.0, 1.0]), tf.constant([0.25, 0.5]), 3, 3)]
