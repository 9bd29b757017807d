"""Source: https://github.com/tensorflow/tensorflow/issues/36910 (near miss of a loss that read its margin with K.eval: the same margin kept as a tensor compiles)."""
import tensorflow as tf

K = tf.keras.backend


def adaptive_hinge(y_true, y_pred):
    margin = K.mean(K.abs(y_pred))
    return K.mean(K.maximum(margin - y_true * y_pred, 0.0))


# --- oracle ---
def ENTRY():
    return adaptive_hinge, (tf.constant([[1.0], [-1.0]]), tf.constant([[0.3], [0.4]]))
