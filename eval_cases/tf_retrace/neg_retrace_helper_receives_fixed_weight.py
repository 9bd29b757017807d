"""The helper is called in the epoch loop with the same Python float every time: one trace.

Near miss for tensorflow/tensorflow#34025 (https://github.com/tensorflow/tensorflow/issues/34025):
a Python float argument costs a trace per *distinct* value; a fixed one costs one.
"""
import tensorflow as tf

AUX_WEIGHT = 0.3


@tf.function(jit_compile=True)
def total_loss(main, aux, aux_weight):
    return tf.reduce_mean(main) + aux_weight * tf.reduce_mean(aux)


def combined(main, aux, aux_weight):
    return total_loss(main, aux, aux_weight)


def run_epochs(main, aux, epochs):
    out = []
    for _ in range(epochs):
        out.append(combined(main, aux, AUX_WEIGHT))
    return out


# --- oracle ---
WRAP = False


def ENTRY():
    return run_epochs, (tf.constant([1.0, 2.0]), tf.constant([0.5, 0.25]), 3)


def ALT_ARGS():
    return [(tf.constant([2.0, 1.0]), tf.constant([0.25, 0.5]), 3)]
