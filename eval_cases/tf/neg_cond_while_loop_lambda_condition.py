"""Source: https://github.com/tensorflow/tensorflow/issues/56593 ("AutoGraph could not transform lambda and will run it as-is" for a while_loop condition `lambda z1, z2: tf.math.reduce_any(z1[0][0] == 5)`; near miss: the lambda uses only TF ops, so running it unconverted is fine and the loop compiles under jit_compile)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def count_until_marker(tokens, budget):
    def body(z1, z2):
        return tf.roll(z1, shift=-1, axis=1), z2 + 1

    _, steps = tf.while_loop(lambda z1, z2: tf.logical_and(tf.logical_not(tf.math.reduce_any(z1[0][0] == 5)),
                                                           z2 < budget),
                             body, (tokens, tf.constant(0)))
    return steps


# --- oracle ---
def ENTRY():
    return count_until_marker, (tf.constant([[1, 2, 5, 3]]), tf.constant(10))
