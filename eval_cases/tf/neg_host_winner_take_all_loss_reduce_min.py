"""Source: https://github.com/keras-team/keras/issues/4617 (near miss: the best particle's error selected with tensor ops, no evaluation on the host)."""
import tensorflow as tf

K = tf.keras.backend


def winner_take_all_loss(y_true, y_pred):
    per_particle = K.mean(K.abs(y_true - y_pred), axis=[0, 2])
    return K.min(per_particle)


# --- oracle ---
def ENTRY():
    y_true = tf.constant([[[1.0, 2.0]], [[0.0, 1.0]]])
    y_pred = tf.reshape(tf.range(12, dtype=tf.float32) / 6.0, [2, 3, 2])
    return winner_take_all_loss, (y_true, y_pred)
