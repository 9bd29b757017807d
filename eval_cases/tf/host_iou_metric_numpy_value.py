"""Source: https://github.com/tensorflow/tensorflow/issues/11840 (a custom IoU metric returns `(i / u).item() if u != 0 else u.item()`: converting the tensor to a Python number fails once Keras traces the metric; here the number comes from .numpy())."""
import tensorflow as tf


def iou(y_true, y_pred):
    y_pred = tf.cast(y_pred > 0.5, tf.float32)
    intersection = tf.reduce_sum(y_true * y_pred)
    union = tf.reduce_sum(tf.maximum(y_true, y_pred))
    return float((intersection / union).numpy())  # XLA: host


def eval_step(y_true, y_pred):
    return tf.constant(iou(y_true, y_pred))


# --- oracle ---
def ENTRY():
    y_true = tf.constant([[1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 0.0]])
    y_pred = tf.constant([[0.8, 0.2, 0.4, 0.9], [0.1, 0.7, 0.6, 0.3]])
    return eval_step, (y_true, y_pred)
