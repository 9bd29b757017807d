"""Source: https://github.com/tensorflow/tensorflow/issues/40508 (near miss: a plain Python print of the tensor runs once at trace time and does not need a host value)."""
import tensorflow as tf


def loss(y_true, y_pred):
    err = y_true - y_pred
    print("error tensor:", err)
    return tf.reduce_mean(tf.square(err))


# --- oracle ---
def ENTRY():
    return loss, (tf.constant([[1.0, 0.0]]), tf.constant([[0.7, 0.2]]))
