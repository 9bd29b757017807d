"""Source: https://github.com/tensorflow/probability/issues/1152 ("HMC sampling results differ when using / not using XLA compilation": a log-probability built on pairwise distances `tf.linalg.norm(X[None] - X[:, None], axis=2)`, the diagonal masked out afterwards, gives an acceptance rate of one eagerly and zero under `experimental_compile=True`; the norm's gradient at the zero diagonal is 0/0). Here a leapfrog integrator of that target, with the Metropolis acceptance, in a jit-compiled chain step (plain TensorFlow, no TFP)."""
import numpy as np
import tensorflow as tf

N = 6
D0 = 2.0
MASK = tf.constant(1.0 - np.eye(N), tf.float32)


def log_prob(x):
    d = tf.linalg.norm(tf.expand_dims(x, 0) - tf.expand_dims(x, 1), axis=2)  # XLA: op
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
