"""Source: https://github.com/keras-team/keras/issues/4617 (a winner-take-all loss evaluates the index of the best particle with .eval() on K.argmin: evaluating a tensor inside the compiled loss fails)."""
import tensorflow as tf

K = tf.keras.backend
NUM_PARTICLES = 3


def winner_take_all_loss(y_true, y_pred):
    errors = tf.stack([K.sum(K.abs(y_true[:, 0, :] - y_pred[:, p, :])) for p in range(NUM_PARTICLES)])
    best = int(K.eval(K.argmin(errors)))  # XLA: host
    return K.mean(K.abs(y_true[:, 0, :] - y_pred[:, best, :]))


# --- oracle ---
def ENTRY():
    y_true = tf.constant([[[1.0, 2.0]], [[0.0, 1.0]]])
    y_pred = tf.reshape(tf.range(12, dtype=tf.float32) / 6.0, [2, 3, 2])
    return winner_take_all_loss, (y_true, y_pred)
