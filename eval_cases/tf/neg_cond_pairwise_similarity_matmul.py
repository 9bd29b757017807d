"""Source: https://github.com/tensorflow/tensorflow/issues/47139 (near miss: the pairwise cosine similarities as one normalised matmul, no Python loop over tensors)."""
import tensorflow as tf


def pairwise_similarity(a_rows, b_rows):
    a = tf.math.l2_normalize(a_rows, axis=-1)
    b = tf.math.l2_normalize(b_rows, axis=-1)
    return tf.reshape(tf.matmul(b, a, transpose_b=True), [-1])


# --- oracle ---
def ENTRY():
    return pairwise_similarity, (tf.constant([[1.0, 1.0, 1.0], [1.0, 3.0, 1.0]]), tf.constant([[1.0, 1.0, 1.0]]))
