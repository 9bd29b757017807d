"""Source: https://github.com/tensorflow/tensorflow/issues/29504 (tf.function fails on a for loop over tf.range that appends to a Python list and then sums it with tf.add_n)."""
import tensorflow as tf


def sum_of_steps(num_iter, scale):
    digit_list = []
    for i in tf.range(num_iter):
        digit_list.append(tf.cast(i, tf.float32) * scale)  # XLA: cond
    return tf.add_n(digit_list)


# --- oracle ---
def ENTRY():
    return sum_of_steps, (tf.constant(5), tf.constant(0.5))
