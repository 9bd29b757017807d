"""Source: https://github.com/tensorflow/tensorflow/issues/37512 (InaccessibleTensorError when appending to a Python list while looping: here a decoding helper collects per-step states inside `for t in tf.range(...)`, which AutoGraph stages)."""
import tensorflow as tf


def unroll_logits(cell_weights, state, steps):
    outputs = []
    for t in tf.range(steps):
        state = tf.tanh(tf.matmul(state, cell_weights))
        outputs.append(state * tf.cast(t + 1, tf.float32))  # XLA: cond
    return tf.stack(outputs, axis=1)


# --- oracle ---
def ENTRY():
    return unroll_logits, (tf.eye(3) * 0.5, tf.ones([2, 3]), tf.constant(4))
