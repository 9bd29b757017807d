"""Source: https://github.com/tensorflow/tensorflow/issues/34025 ("5 out of the last 5 calls to <function loss_fn> triggered tf.function retracing": a Python float passed to a compiled loss changes every epoch)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def loss_fn(y_true, y_pred, label_smoothing):
    return tf.reduce_mean(tf.keras.losses.binary_crossentropy(y_true, y_pred, label_smoothing=label_smoothing))


def epoch_losses(y_true, y_pred, schedule):
    return [loss_fn(y_true, y_pred, s) for s in schedule]  # XLA: retrace


# --- oracle ---
def ENTRY():
    return loss_fn, (tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]), 0.1)


def ALT_ARGS():
    return [(tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]), 0.05),
            (tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]), 0.0)]
