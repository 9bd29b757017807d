"""Source: https://github.com/tensorflow/tensorflow/issues/119438 (XLA tf.nn.top_k ranks NaN differently from eager). Written as a failure, labelled ok by the compiler: few-shot retrieval picks the two closest class prototypes and the class without support examples (the last one) has a 0/0 prototype; eager top_k leaves a trailing NaN out (tensorflow/tensorflow#117287) and XLA orders the 0/0 NaN below every number, so both pick the same two."""
import tensorflow as tf


@tf.function(jit_compile=True)
def nearest_two_prototypes(query, support, support_labels):
    one_hot = tf.one_hot(support_labels, 4)
    prototypes = tf.matmul(one_hot, support, transpose_a=True) / tf.reduce_sum(one_hot, axis=0)[:, None]
    similarity = tf.linalg.matvec(prototypes, query)
    return tf.math.top_k(similarity, k=2).indices


# --- oracle ---
def ENTRY():
    support = tf.constant([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.5, 0.5]])
    return nearest_two_prototypes, (tf.constant([0.8, 0.3]), support, tf.constant([0, 0, 1, 2]))
