"""Source: https://github.com/tensorflow/tensorflow/issues/119990 (the documented way around it: a denominator that cannot be 0, so no NaN reaches tf.reduce_max and eager and XLA agree)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def batch_confidence(token_scores, attention_mask):
    mask = tf.cast(attention_mask, token_scores.dtype)
    sentence_scores = tf.reduce_sum(token_scores * mask, axis=1) / (tf.reduce_sum(mask, axis=1) + 1e-9)
    return tf.reduce_max(sentence_scores)


# --- oracle ---
def ENTRY():
    scores = tf.constant([[0.2, 0.9, 0.4], [0.7, 0.1, 0.0], [0.3, 0.3, 0.3]])
    mask = tf.constant([[1, 1, 0], [0, 0, 0], [1, 1, 1]])
    return batch_confidence, (scores, mask)
