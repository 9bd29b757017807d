"""Source: https://github.com/tensorflow/tensorflow/issues/55973 (masked sparse categorical crossentropy through RaggedReduceMean: "Input 1 to node .../Repeat/Tile with op Tile must be a compile-time constant")."""
import tensorflow as tf


def masked_sparse_categorical_crossentropy(y_true, logits):
    losses = tf.keras.losses.sparse_categorical_crossentropy(y_true, logits, from_logits=True)
    ragged = tf.ragged.boolean_mask(losses, y_true != 0)  # XLA: shape
    return tf.reduce_mean(tf.reduce_mean(ragged, axis=1))


# --- oracle ---
def ENTRY():
    y = tf.constant([[3, 1, 0, 0], [2, 2, 1, 0]])
    logits = tf.reshape(tf.range(32, dtype=tf.float32) / 10.0, [2, 4, 4])
    return masked_sparse_categorical_crossentropy, (y, logits)
