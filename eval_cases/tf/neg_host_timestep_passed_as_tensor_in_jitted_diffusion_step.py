"""Source: https://github.com/tensorflow/tensorflow/issues/109111 ("[XLA] Inconsistent shape error detection: Python random shapes work in eager mode but cause dimension mismatch in XLA compilation": a diffusion layer draws its timestep with Python's `random.randint` inside `call`). Here the data pipeline draws the timestep outside the compiled code and passes it to the jit-compiled noising step as an int32 tensor, so each call uses its own timestep."""
import random

import tensorflow as tf

TIMESTEPS = 50


@tf.function(jit_compile=True)
def noising_step(x, noise, t):
    alpha = 1.0 - tf.cast(t, tf.float32) / TIMESTEPS
    return tf.sqrt(alpha) * x + tf.sqrt(1.0 - alpha) * noise


def train_batch(x, noise):
    t = tf.constant(random.randint(1, TIMESTEPS), tf.int32)
    return noising_step(x, noise, t)


# --- oracle ---
def ENTRY():
    x = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4])
    return noising_step, (x, tf.ones([2, 4]), tf.constant(10, tf.int32))


def ALT_ARGS():
    x = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4])
    return [(x, tf.ones([2, 4]), tf.constant(25, tf.int32)), (x + 1.0, tf.ones([2, 4]), tf.constant(3, tf.int32))]
