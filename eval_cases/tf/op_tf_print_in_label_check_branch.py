"""Source: https://github.com/huggingface/transformers/issues/7850 (the TF token-classification loss checks `labels == -1` in a tensor if; its tf.print warning has no XLA kernel once the loss is compiled)."""
import tensorflow as tf


def token_classification_loss(labels, logits):
    if tf.math.reduce_any(labels == -1):
        tf.print("Using `-1` to mask the loss for the token is deprecated.")  # XLA: op
    active = tf.cast(labels >= 0, tf.float32)
    safe_labels = tf.maximum(labels, 0)
    losses = tf.keras.losses.sparse_categorical_crossentropy(safe_labels, logits, from_logits=True)
    return tf.reduce_sum(losses * active) / tf.reduce_sum(active)


# --- oracle ---
def ENTRY():
    labels = tf.constant([[1, 2, -100], [0, -100, -100]])
    logits = tf.reshape(tf.range(18, dtype=tf.float32) / 9.0, [2, 3, 3])
    return token_classification_loss, (labels, logits)
