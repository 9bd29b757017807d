"""Source: https://github.com/tensorflow/tensorflow/issues/116992 (CPU XLA drops NaN in tf.maximum between two tensors; also openxla/xla#49174). Written as a failure, labelled ok by the compiler: a recall hinge penalty per class whose absent class gives 0/0, but with a Python float as the first operand (tf.maximum(0.0, ...)) XLA keeps the NaN as eager does (measured in xlacheck/data/tf_xla_divergence.json, form constant_first)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def recall_penalty(labels_one_hot, predictions_one_hot, target_recall):
    true_positives = tf.reduce_sum(labels_one_hot * predictions_one_hot, axis=0)
    recall = true_positives / tf.reduce_sum(labels_one_hot, axis=0)
    return tf.maximum(0.0, target_recall - recall)


# --- oracle ---
def ENTRY():
    labels = tf.one_hot([0, 1, 1, 0], 3)
    preds = tf.one_hot([0, 1, 0, 0], 3)
    return recall_penalty, (labels, preds, tf.constant(0.8))
