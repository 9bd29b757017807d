"""Source: https://github.com/tensorflow/tensorflow/issues/117960 (near miss of a tf.math.bincount eager/XLA mismatch: with valid class ids and `minlength == maxlength` the count has a known length, but Bincount still needs its size input as a compile-time constant, so the class-balanced loss compiles only by specialising on values)."""
import tensorflow as tf

NUM_CLASSES = 4


def class_balanced_loss(labels, logits):
    counts = tf.math.bincount(labels, minlength=NUM_CLASSES, maxlength=NUM_CLASSES,  # XLA: shape
                              dtype=tf.float32)
    weights = tf.reduce_sum(counts) / (NUM_CLASSES * tf.maximum(counts, 1.0))
    per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
    return tf.reduce_mean(per_example * tf.gather(weights, labels))


# --- oracle ---
def ENTRY():
    logits = tf.reshape(tf.range(24, dtype=tf.float32), [6, 4]) / 24.0
    return class_balanced_loss, (tf.constant([0, 1, 1, 3, 3, 3]), logits)
