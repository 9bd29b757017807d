"""Source: https://github.com/tensorflow/tensor2tensor/issues/311 (the fix for "Incompatible return types of true_fn and false_fn": cast both branches to one dtype, so the traced tf.cond is well typed and compiles)."""
import tensorflow as tf


def pick_targets(use_soft_labels, hard_labels, soft_labels):
    return tf.cond(use_soft_labels, lambda: soft_labels, lambda: tf.cast(hard_labels, soft_labels.dtype))


def cross_entropy(logits, use_soft_labels, hard_labels, soft_labels):
    targets = pick_targets(use_soft_labels, hard_labels, soft_labels)
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(targets, logits))


# --- oracle ---
def ENTRY():
    logits = tf.constant([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
    hard = tf.constant([[1, 0, 0], [0, 0, 1]])
    soft = tf.constant([[0.8, 0.1, 0.1], [0.1, 0.1, 0.8]])
    return cross_entropy, (logits, tf.constant(True), hard, soft)
