"""Source: https://github.com/tensorflow/tensorflow/issues/29504 (near miss, the documented fix: collect the loop values in a tf.TensorArray of fixed size)."""
import tensorflow as tf

NUM_ITER = 5


def sum_of_steps(scale):
    values = tf.TensorArray(tf.float32, size=NUM_ITER)
    for i in tf.range(NUM_ITER):
        values = values.write(i, tf.cast(i, tf.float32) * scale)
    return tf.reduce_sum(values.stack())


# --- oracle ---
def ENTRY():
    return sum_of_steps, (tf.constant(0.5),)
