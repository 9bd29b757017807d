"""Source: https://github.com/tensorflow/tensorflow/issues/119990 (tf.reduce_max returns the largest finite value under jit_compile where eager returns NaN: a batch confidence taken as the max of masked-mean token scores, where a padding row of the batch has an all-zero attention mask)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def batch_confidence(token_scores, attention_mask):
    mask = tf.cast(attention_mask, token_scores.dtype)
    sentence_scores = tf.reduce_sum(token_scores * mask, axis=1) / tf.reduce_sum(mask, axis=1)
    return tf.reduce_max(sentence_scores)  # XLA: op


# --- oracle ---
def ENTRY():
    scores = tf.constant([[0.2, 0.9, 0.4], [0.7, 0.1, 0.0], [0.3, 0.3, 0.3]])
    mask = tf.constant([[1, 1, 0], [0, 0, 0], [1, 1, 1]])
    return batch_confidence, (scores, mask)
