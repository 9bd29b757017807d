"""Source: https://github.com/tensorflow/probability/issues/764 (bfgs_minimize with an initial inverse Hessian adds assert ops that broke experimental_compile in TF 2.1; on TF 2.21 XLA:CPU tf.debugging assertions inside a jit-compiled quasi-Newton step compile on TF 2.21, the Assert op being dropped by XLA)."""
import tensorflow as tf


def objective(x):
    return tf.reduce_sum(tf.math.squared_difference(x, [1.0, 10.0]))


@tf.function(jit_compile=True)
def quasi_newton_step(x, inv_hessian):
    tf.debugging.assert_greater(tf.linalg.diag_part(inv_hessian), 0.0, message="inverse Hessian must be positive")
    with tf.GradientTape() as tape:
        tape.watch(x)
        f = objective(x)
    g = tape.gradient(f, x)
    return x - tf.linalg.matvec(inv_hessian, g), f


# --- oracle ---
def ENTRY():
    return quasi_newton_step, (tf.constant([0.0, 0.0]), tf.eye(2) * 0.5)
