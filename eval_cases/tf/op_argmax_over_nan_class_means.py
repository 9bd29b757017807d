"""Source: https://github.com/tensorflow/tensorflow/issues/120232 (tf.math.argmax returns a different index under jit_compile than eagerly when the input contains NaN: a nearest-prototype classifier whose empty class has a 0/0 mean score picks another class when compiled)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def predict_prototype(features, support, support_labels):
    one_hot = tf.one_hot(support_labels, 3)
    sums = tf.matmul(one_hot, support, transpose_a=True)
    counts = tf.reduce_sum(one_hot, axis=0)[:, None]
    prototypes = sums / counts
    scores = -tf.reduce_sum(tf.square(features[:, None, :] - prototypes[None]), axis=-1)
    return tf.argmax(scores, axis=-1)  # XLA: op


# --- oracle ---
def ENTRY():
    support = tf.constant([[0.0, 0.0], [0.2, 0.1], [3.0, 3.0]])
    return predict_prototype, (tf.constant([[0.1, 0.0], [2.9, 3.1]]), support, tf.constant([0, 0, 1]))
