"""Source: https://github.com/tensorflow/tpu/issues/584 ("Support for tf.where without x and y arguments": the reporter needs the indices where a boolean is True on TPU; the usual answer is to keep every anchor and weight the loss by the 0/1 mask so no shape depends on the data). Here the detector's box-regression loss weights all anchors by the positive mask inside the jit-compiled loss."""
import tensorflow as tf

NUM_ANCHORS = 12


@tf.function(jit_compile=True)
def positive_box_loss(iou, box_pred, box_target):
    is_pos = tf.cast(tf.reduce_max(iou, axis=-1) > 0.5, tf.float32)
    per_anchor = tf.reduce_sum(tf.abs(box_pred - box_target), axis=-1) * is_pos
    return tf.reduce_sum(per_anchor) / tf.maximum(tf.reduce_sum(is_pos), 1.0)


# --- oracle ---
def ENTRY():
    iou = tf.reshape(tf.range(NUM_ANCHORS * 3, dtype=tf.float32), [NUM_ANCHORS, 3]) / 40.0
    pred = tf.reshape(tf.range(NUM_ANCHORS * 4, dtype=tf.float32), [NUM_ANCHORS, 4]) / 10.0
    target = tf.ones([NUM_ANCHORS, 4])
    return positive_box_loss, (iou, pred, target)
