"""Source: https://github.com/tensorflow/tensorflow/issues/56595 ("Removed XLA support for adding ragged Tensors in TF 2.9": adding two RaggedTensors built from the same row splits inside a jit-compiled function)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def per_sentence_token_features(token_vectors, position_vectors, row_splits):
    tokens = tf.RaggedTensor.from_row_splits(token_vectors, row_splits)
    positions = tf.RaggedTensor.from_row_splits(position_vectors, row_splits)
    combined = tokens + positions  # XLA: op
    return tf.reduce_mean(combined, axis=1)


# --- oracle ---
def ENTRY():
    tokens = tf.reshape(tf.range(14, dtype=tf.float32), [7, 2]) / 14.0
    return per_sentence_token_features, (tokens, tf.ones([7, 2]) * 0.1, tf.constant([0, 1, 3, 7]))
