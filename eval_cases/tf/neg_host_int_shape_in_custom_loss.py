"""Source: https://github.com/keras-team/keras/issues/4075 (near miss: K.int_shape reads the static shape, Python ints at trace time)."""
import tensorflow as tf

K = tf.keras.backend


def custom_loss(y_true, y_pred):
    batch, dims = K.int_shape(y_true)
    return K.sum(K.square(y_true - y_pred)) / float(batch * dims)


# --- oracle ---
def ENTRY():
    return custom_loss, (tf.constant([[1.0, 0.0], [0.0, 1.0]]), tf.constant([[0.8, 0.1], [0.3, 0.6]]))
