"""Source: https://github.com/tensorflow/tensorflow/issues/40143 (U-Net IoU metric with `i / u if u != 0 else u` raised OperatorNotAllowedInGraphError in TF 2.1; AutoGraph now converts the conditional expression into tf.cond, so the tensor-only version compiles)."""
import tensorflow as tf


def iou(y_true, y_pred):
    y_pred = tf.cast(y_pred > 0.5, tf.float32)
    intersection = tf.reduce_sum(y_true * y_pred)
    union = tf.reduce_sum(y_true + y_pred) - intersection
    return intersection / union if union != 0 else union


def eval_step(y_true, y_pred):
    return iou(y_true, y_pred)


# --- oracle ---
def ENTRY():
    y_true = tf.constant([[1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 0.0]])
    y_pred = tf.constant([[0.8, 0.2, 0.4, 0.9], [0.1, 0.7, 0.6, 0.3]])
    return eval_step, (y_true, y_pred)
