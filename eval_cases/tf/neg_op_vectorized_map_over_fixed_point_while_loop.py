"""Source: https://github.com/tensorflow/tensorflow/issues/46559 ("Issue on using tf.vectorized_map on a function with a tf.while_loop", TF 2.2; on TF 2.21 XLA:CPU pfor vectorizes the per-example fixed-point iteration and the result compiles under jit_compile)."""
import tensorflow as tf


def fixed_point(a):
    def body(i, x):
        return i + 1, 0.5 * (x + a / x)

    _, root = tf.while_loop(lambda i, x: i < 6, body, (tf.constant(0), tf.ones_like(a)))
    return root


@tf.function(jit_compile=True)
def batched_sqrt(values):
    return tf.vectorized_map(fixed_point, values)


# --- oracle ---
def ENTRY():
    return batched_sqrt, (tf.constant([[2.0], [9.0], [16.0]]),)
