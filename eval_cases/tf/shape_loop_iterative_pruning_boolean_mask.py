"""Source: https://github.com/tensorflow/tensorflow/issues/45538 (ValueError in loops: "Input tensor ... enters the loop with shape (), but has shape (3,) after one iteration"; a loop variable's shape must not change); here iterative pruning keeps the scores above the running mean with tf.boolean_mask, inside a tf.range loop."""
import tensorflow as tf


@tf.function(jit_compile=True)
def pruned_mass(scores, rounds):
    for _ in tf.range(rounds):
        scores = tf.boolean_mask(scores, scores >= tf.reduce_mean(scores))  # XLA: shape
    return tf.reduce_sum(scores)


# --- oracle ---
def ENTRY():
    return pruned_mass, (tf.constant([0.1, 0.5, 0.9, 0.3, 0.7, 0.2]), tf.constant(2))
