"""Source: https://github.com/tensorflow/tensorflow/issues/39323 (the maintainers' fix for a list filled in a staged loop: a TensorArray carries the per-step values out of the `for t in tf.range(...)` loop; the number of steps is a Python int, so the loop bound and the array size are compile-time constants)."""
import tensorflow as tf


def unroll_logits(cell_weights, state, steps):
    outputs = tf.TensorArray(tf.float32, size=steps)
    for t in tf.range(steps):
        state = tf.tanh(tf.matmul(state, cell_weights))
        outputs = outputs.write(t, state * tf.cast(t + 1, tf.float32))
    return tf.transpose(outputs.stack(), [1, 0, 2])


# --- oracle ---
def ENTRY():
    return unroll_logits, (tf.eye(3) * 0.5, tf.ones([2, 3]), 4)
