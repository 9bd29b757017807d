"""Source: https://github.com/tensorflow/probability/issues/1152 (the repair for the pairwise-distance target: take the square root of the squared distance plus a small epsilon, so the gradient at the masked zero diagonal is finite and the compiled chain accepts as the eager one does). Leapfrog HMC step of that target, jit-compiled."""
import numpy as np
import tensorflow as tf

N = 6
D0 = 2.0
MASK = tf.constant(1.0 - np.eye(N), tf.float32)


def log_prob(x):
    diff = tf.expand_dims(x, 0) - tf.expand_dims(x, 1)
    d = tf.sqrt(tf.reduce_sum(tf.square(diff), axis=2) + 1e-12)
    return -tf.reduce_sum(tf.square((D0 - d) * MASK))


def grad_log_prob(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        lp = log_prob(x)
    return lp, tape.gradient(lp, x)


@tf.function(jit_compile=True)
def hmc_step(x, momentum, step_size, u):
    lp0, g = grad_log_prob(x)
    p = momentum + 0.5 * step_size * g
    x_new = x
    for _ in range(3):
        x_new = x_new + step_size * p
        lp1, g = grad_log_prob(x_new)
        p = p + step_size * g
    p = p - 0.5 * step_size * g
    log_accept = lp1 - lp0 - 0.5 * tf.reduce_sum(tf.square(p)) + 0.5 * tf.reduce_sum(tf.square(momentum))
    accept = tf.math.log(u) < log_accept
    return tf.where(accept, x_new, x), tf.cast(accept, tf.float32)


# --- oracle ---
WRAP = False


def ENTRY():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.uniform(-3, 3, size=(N, 2)), tf.float32)
    momentum = tf.constant(rng.normal(size=(N, 2)), tf.float32)
    return hmc_step, (x, momentum, tf.constant(0.01), tf.constant(0.5))
