"""Source: https://github.com/tensorflow/tensorflow/issues/120232 (near miss: the class means are selected with tf.where on a non-zero count, so the 0/0 of an empty class never reaches tf.argmax)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def best_class(per_example_score, labels_one_hot):
    counts = tf.reduce_sum(labels_one_hot, axis=0)
    means = tf.reduce_sum(per_example_score[:, None] * labels_one_hot, axis=0) / counts
    safe_means = tf.where(counts > 0, means, tf.fill(tf.shape(means), -1e9))
    return tf.argmax(safe_means)


# --- oracle ---
def ENTRY():
    return best_class, (tf.constant([0.3, 1.2, 0.7]), tf.one_hot([0, 1, 1], 3))
