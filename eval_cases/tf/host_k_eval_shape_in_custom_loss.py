"""Source: https://github.com/keras-team/keras/issues/4075 (K.eval(K.shape(y_true)) inside a custom loss: the loss is traced, so there is no value to evaluate)."""
import tensorflow as tf

K = tf.keras.backend


def custom_loss(y_true, y_pred):
    batch, dims = K.eval(K.shape(y_true))  # XLA: host
    return K.sum(K.square(y_true - y_pred)) / float(batch * dims)


# --- oracle ---
def ENTRY():
    return custom_loss, (tf.constant([[1.0, 0.0], [0.0, 1.0]]), tf.constant([[0.8, 0.1], [0.3, 0.6]]))
