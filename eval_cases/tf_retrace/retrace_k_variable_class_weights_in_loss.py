"""A weighted loss that wraps its class weights in K.variable on every call.

Rebuilt from dhirajmaji7/Attention-Res-UNet-with-Guided-Decoder-for-Semantic-Segmentation-of-Brain-tumors#1
(https://github.com/dhirajmaji7/Attention-Res-UNet-with-Guided-Decoder-for-Semantic-Segmentation-of-Brain-tumors/issues/1):
`weights = K.variable(weights)` inside `weighted_log_loss`, called from the compiled train
function -> "tf.function only supports singleton tf.Variables created on the first call".
"""
import tensorflow as tf
from tensorflow.keras import backend as K

CLASS_WEIGHTS = [1.0, 3.0]


def weighted_log_loss(y_true, y_pred):
    weights = K.variable(CLASS_WEIGHTS)  # XLA: retrace
    y_pred = tf.clip_by_value(y_pred, 1e-7, 1.0 - 1e-7)
    return -tf.reduce_mean(tf.reduce_sum(y_true * tf.math.log(y_pred) * weights, axis=-1))


# --- oracle ---
def ENTRY():
    return weighted_log_loss, (tf.constant([[1.0, 0.0], [0.0, 1.0]]), tf.constant([[0.8, 0.2], [0.3, 0.7]]))


def ALT_ARGS():
    return [(tf.constant([[0.0, 1.0], [1.0, 0.0]]), tf.constant([[0.6, 0.4], [0.1, 0.9]]))]
