"""Source: https://github.com/tensorflow/tensorflow/issues/126415 (tf.unique_with_counts has no XLA_CPU_JIT kernel): inverse token-frequency weights in a loss."""
import tensorflow as tf


def inverse_frequency_loss(token_ids, per_token_loss):
    _, idx, counts = tf.unique_with_counts(tf.reshape(token_ids, [-1]))  # XLA: op
    weights = 1.0 / tf.cast(tf.gather(counts, idx), tf.float32)
    return tf.reduce_sum(weights * tf.reshape(per_token_loss, [-1])) / tf.reduce_sum(weights)


# --- oracle ---
def ENTRY():
    ids = tf.constant([[5, 7, 5], [9, 5, 7]])
    loss = tf.constant([[0.1, 0.4, 0.2], [1.0, 0.3, 0.5]])
    return inverse_frequency_loss, (ids, loss)
