"""The weighted loss of the Attention-Res-UNet report with the weights as a constant tensor.

Counterpart of https://github.com/dhirajmaji7/Attention-Res-UNet-with-Guided-Decoder-for-Semantic-Segmentation-of-Brain-tumors/issues/1
"""
import tensorflow as tf

CLASS_WEIGHTS = [1.0, 3.0]


def weighted_log_loss(y_true, y_pred):
    weights = tf.constant(CLASS_WEIGHTS)
    y_pred = tf.clip_by_value(y_pred, 1e-7, 1.0 - 1e-7)
    return -tf.reduce_mean(tf.reduce_sum(y_true * tf.math.log(y_pred) * weights, axis=-1))


# --- oracle ---
def ENTRY():
    return weighted_log_loss, (tf.constant([[1.0, 0.0], [0.0, 1.0]]), tf.constant([[0.8, 0.2], [0.3, 0.7]]))


def ALT_ARGS():
    return [(tf.constant([[0.0, 1.0], [1.0, 0.0]]), tf.constant([[0.6, 0.4], [0.1, 0.9]]))]
