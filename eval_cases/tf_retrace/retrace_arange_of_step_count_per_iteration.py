"""Positions built with tf.range(t) for the current length, passed to a compiled function each step.

Rebuilt from tensorflow/tensorflow#33434 (https://github.com/tensorflow/tensorflow/issues/33434):
"if the shape of the input tensors varies, it seems TF will create a new graph every single
time". A position vector of length t has a new shape at every step.
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def position_energy(positions):
    angles = tf.cast(positions, tf.float32) / 10.0
    return tf.reduce_sum(tf.sin(angles) ** 2)


def grow(steps):
    total = tf.constant(0.0)
    for t in range(1, steps + 1):
        total += position_energy(tf.range(t))  # XLA: retrace
    return total


# --- oracle ---
WRAP = False


def ENTRY():
    return grow, (2,)


def ALT_ARGS():
    return [(4,)]
