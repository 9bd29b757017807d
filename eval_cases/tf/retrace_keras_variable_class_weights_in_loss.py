"""Source: https://github.com/dhirajmaji7/Attention-Res-UNet-with-Guided-Decoder-for-Semantic-Segmentation-of-Brain-tumors/issues/1 (K.variable(weights) inside a weighted loss: "tf.function only supports singleton tf.Variables created on the first call")."""
import tensorflow as tf

K = tf.keras.backend
CLASS_WEIGHTS = [0.2, 0.8]


def weighted_log_loss(y_true, y_pred):
    weights = K.variable(CLASS_WEIGHTS)  # XLA: retrace
    y_pred = K.clip(y_pred, K.epsilon(), 1.0 - K.epsilon())
    return -K.mean(K.sum(y_true * K.log(y_pred) * weights, axis=-1))


@tf.function(jit_compile=True)
def eval_loss(y_true, y_pred):
    return weighted_log_loss(y_true, y_pred)


# --- oracle ---
def ENTRY():
    return eval_loss, (tf.constant([[1.0, 0.0], [0.0, 1.0]]), tf.constant([[0.7, 0.3], [0.4, 0.6]]))


def ALT_ARGS():
    return [(tf.constant([[0.0, 1.0], [0.0, 1.0]]), tf.constant([[0.2, 0.8], [0.5, 0.5]]))]
