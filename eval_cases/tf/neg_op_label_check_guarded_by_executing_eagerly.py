"""Source: https://github.com/huggingface/transformers/issues/7850 (near miss: the deprecation check runs only when executing eagerly, a Python bool at trace time, so no print reaches the compiled graph)."""
import tensorflow as tf


def token_classification_loss(labels, logits):
    if tf.executing_eagerly():
        if tf.math.reduce_any(labels == -1):
            tf.print("Using `-1` to mask the loss for the token is deprecated.")
    active = tf.cast(labels >= 0, tf.float32)
    safe_labels = tf.maximum(labels, 0)
    losses = tf.keras.losses.sparse_categorical_crossentropy(safe_labels, logits, from_logits=True)
    return tf.reduce_sum(losses * active) / tf.reduce_sum(active)


# --- oracle ---
def ENTRY():
    labels = tf.constant([[1, 2, -100], [0, -100, -100]])
    logits = tf.reshape(tf.range(18, dtype=tf.float32) / 9.0, [2, 3, 3])
    return token_classification_loss, (labels, logits)
