"""Source: https://github.com/tensorflow/tensorflow/issues/34025 (near miss: the per-epoch smoothing value is passed as a tensor, so the compiled loss is traced once)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def loss_fn(y_true, y_pred, label_smoothing):
    y_smooth = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return tf.reduce_mean(tf.keras.losses.binary_crossentropy(y_smooth, y_pred))


def epoch_losses(y_true, y_pred, schedule):
    return [loss_fn(y_true, y_pred, tf.constant(s)) for s in schedule]


# --- oracle ---
def ENTRY():
    return loss_fn, (tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]), tf.constant(0.1))


def ALT_ARGS():
    return [(tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]), tf.constant(0.05)),
            (tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]), tf.constant(0.0))]
