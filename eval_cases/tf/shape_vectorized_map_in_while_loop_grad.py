"""Source: https://github.com/tensorflow/tensorflow/issues/73367 (gradient of a vectorized_map nested in a while_loop: "Input 1 to node .../pfor/Tile_grad/Reshape_1 with op Reshape must be a compile-time constant")."""
import tensorflow as tf


def value_and_grads(a, b):
    with tf.GradientTape() as tape:
        tape.watch([a, b])

        def body(i, acc):
            xs = tf.ones([3]) * tf.cast(i + 1, tf.float32)
            v = tf.vectorized_map(lambda x: tf.tile(tf.reshape(x * a + b, [1]), [2]), xs)  # XLA: shape
            return i + 1, acc + tf.reduce_sum(v)

        _, total = tf.while_loop(lambda i, acc: i < 3, body, (tf.constant(0), tf.constant(0.0)))
    return total, tape.gradient(total, [a, b])


# --- oracle ---
def ENTRY():
    return value_and_grads, (tf.constant(0.1), tf.constant(0.4))
