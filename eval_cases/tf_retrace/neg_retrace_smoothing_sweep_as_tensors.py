"""The same smoothing sweep with each value passed as a tensor: one trace, one compilation.

Near miss for tensorflow/tensorflow#34025 (https://github.com/tensorflow/tensorflow/issues/34025),
the fix its answer gives (pass tensors, not Python floats).
"""
import tensorflow as tf

SMOOTHING_SWEEP = (0.0, 0.05, 0.1, 0.2)


@tf.function(jit_compile=True)
def smoothed_bce(y_true, y_pred, label_smoothing):
    y_smooth = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return tf.reduce_mean(tf.keras.losses.binary_crossentropy(y_smooth, y_pred))


def sweep_losses(y_true, y_pred):
    return [smoothed_bce(y_true, y_pred, tf.constant(s)) for s in SMOOTHING_SWEEP]


# --- oracle ---
WRAP = False


def ENTRY():
    return sweep_losses, (tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]]))


def ALT_ARGS():
    return [(tf.constant([[0.0], [1.0]]), tf.constant([[0.4], [0.6]]))]
