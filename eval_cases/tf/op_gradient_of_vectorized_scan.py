"""Source: https://github.com/tensorflow/tensorflow/issues/41789 ("Error computing gradient of a vectorized scan loop", TF 2.3: "has no attr named '_XlaCompile'"; on TF 2.21 XLA:CPU the gradient of a vectorized_map over a tf.scan still fails to compile: the backward while loop reserves a TensorList whose size XLA cannot see)."""
import tensorflow as tf


def discounted_return(rewards, gamma):
    return tf.scan(lambda acc, r: r + gamma * acc, rewards, initializer=tf.constant(0.0), reverse=True)


@tf.function(jit_compile=True)
def return_gradient(rewards, gamma):
    with tf.GradientTape() as tape:
        tape.watch(gamma)
        returns = tf.vectorized_map(lambda r: discounted_return(r, gamma), rewards)
        total = tf.reduce_sum(returns)
    return total, tape.gradient(total, gamma)  # XLA: op


# --- oracle ---
def ENTRY():
    return return_gradient, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0, tf.constant(0.9))
