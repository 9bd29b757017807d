"""Source: https://github.com/tensorflow/tensorflow/issues/38539 (both branches of a tensor `if` are traced; here a bigram feature read at column 1 behind a tf.shape guard, for sequences of length 1)."""
import tensorflow as tf


def bigram_feature(token_embeddings):
    seq_len = tf.shape(token_embeddings)[1]
    if seq_len > 1:  # XLA: cond
        feature = token_embeddings[:, 0] * token_embeddings[:, 1]
    else:
        feature = token_embeddings[:, 0]
    return tf.reduce_sum(feature, axis=-1)


# --- oracle ---
def ENTRY():
    return bigram_feature, (tf.ones([2, 1, 4]),)
