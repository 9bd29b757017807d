"""Source: https://github.com/tensorflow/tensorflow/issues/109111 ("[XLA] Inconsistent shape error detection: Python random shapes work in eager mode but cause dimension mismatch in XLA compilation": a diffusion layer draws its timestep with Python's `random.randint` inside `call`). Here a diffusion noising step draws the timestep with `random.randint` inside the jit-compiled function: eagerly every call gets a new timestep, but the compiled step keeps the one drawn while tracing."""
import random

import tensorflow as tf

TIMESTEPS = 50


@tf.function(jit_compile=True)
def noising_step(x, noise):
    t = random.randint(1, TIMESTEPS)  # XLA: host
    alpha = 1.0 - t / TIMESTEPS
    return tf.sqrt(alpha) * x + tf.sqrt(1.0 - alpha) * noise


# --- oracle ---
def ENTRY():
    x = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4])
    return noising_step, (x, tf.ones([2, 4]))


def ALT_ARGS():
    x = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4])
    return [(x, tf.ones([2, 4])), (x + 1.0, tf.ones([2, 4])), (x - 1.0, tf.ones([2, 4]))]
