"""Source: https://github.com/tensorflow/tensorflow/issues/39817 (near miss: the same metric returns the tensor and lets Keras aggregate it)."""
import tensorflow as tf


def top3_overlap(y_true, y_pred):
    bp = tf.argsort(tf.nn.softmax(y_pred), axis=-1, direction="DESCENDING")[:, :3]
    bt = tf.argsort(tf.nn.softmax(y_true), axis=-1, direction="DESCENDING")[:, :3]
    return tf.reduce_sum(tf.cast(tf.equal(bp[:, :, None], bt[:, None, :]), tf.float32), axis=[1, 2])


# --- oracle ---
def ENTRY():
    y_true = tf.constant([[0.1, 0.5, 0.2, 0.9], [0.3, 0.2, 0.8, 0.1]])
    y_pred = tf.constant([[0.2, 0.4, 0.1, 0.8], [0.9, 0.2, 0.7, 0.0]])
    return top3_overlap, (y_true, y_pred)
