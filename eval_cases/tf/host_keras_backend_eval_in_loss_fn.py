"""Source: https://github.com/tensorflow/tensorflow/issues/36910 (K.eval on a tensor inside model code: "'Tensor' object has no attribute '_numpy'"; here a hinge loss picks its margin from the batch with K.eval)."""
import tensorflow as tf

K = tf.keras.backend


def adaptive_hinge(y_true, y_pred):
    margin = float(K.eval(K.mean(K.abs(y_pred))))  # XLA: host
    return K.mean(K.maximum(margin - y_true * y_pred, 0.0))


# --- oracle ---
def ENTRY():
    return adaptive_hinge, (tf.constant([[1.0], [-1.0]]), tf.constant([[0.3], [0.4]]))
