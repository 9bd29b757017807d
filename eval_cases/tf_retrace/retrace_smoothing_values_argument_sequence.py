"""A compiled loss evaluated for each label-smoothing value the caller passes (annotated as a
sequence of floats): each new Python float is a new trace key, so every value traces and
compiles the loss again.

Rebuilt from tensorflow/tensorflow#34025 (https://github.com/tensorflow/tensorflow/issues/34025):
"5 out of the last 5 calls to <function loss_fn> triggered tf.function retracing" for a compiled
loss called with a Python float that changes between calls.
"""
from typing import Sequence

import tensorflow as tf


@tf.function(jit_compile=True)
def smoothed_bce(y_true, y_pred, label_smoothing):
    y_smooth = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return tf.reduce_mean(tf.keras.losses.binary_crossentropy(y_smooth, y_pred))


def sweep_losses(y_true, y_pred, smoothing_values: Sequence[float]):
    return [smoothed_bce(y_true, y_pred, s) for s in smoothing_values]  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return sweep_losses, (tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]), (0.0, 0.1))


def ALT_ARGS():
    return [(tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]), (0.05, 0.2))]
