"""Source: https://github.com/tensorflow/tensorflow/issues/40508 (printing err.numpy() in a custom Keras loss: "'Tensor' object has no attribute 'numpy'" once the loss is traced)."""
import tensorflow as tf


def loss(y_true, y_pred):
    err = y_true - y_pred
    print(err.numpy())  # XLA: host
    return tf.reduce_mean(tf.square(err))


# --- oracle ---
def ENTRY():
    return loss, (tf.constant([[1.0, 0.0]]), tf.constant([[0.7, 0.2]]))
