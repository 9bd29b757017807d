"""Source: https://github.com/Visual-Behavior/detr-tensorflow/issues/32 ("using a `tf.Tensor` as a Python `bool` is not allowed: AutoGraph is disabled in this function" while training DETR: a matching helper that AutoGraph does not convert branches on a tensor)."""
import tensorflow as tf


@tf.autograph.experimental.do_not_convert
def match_cost(pred_boxes, gt_boxes, gt_valid):
    l1 = tf.reduce_sum(tf.abs(pred_boxes[:, None, :] - gt_boxes[None, :, :]), axis=-1)
    if tf.reduce_any(gt_valid):  # XLA: cond
        l1 = tf.where(gt_valid[None, :], l1, 1e4)
    return l1


def detr_box_loss(pred_boxes, gt_boxes, gt_valid):
    cost = match_cost(pred_boxes, gt_boxes, gt_valid)
    assigned = tf.argmin(cost, axis=1)
    return tf.reduce_mean(tf.reduce_min(cost, axis=1)) + tf.cast(tf.reduce_sum(assigned), tf.float32) * 0.0


# --- oracle ---
def ENTRY():
    pred = tf.constant([[0.1, 0.1, 0.5, 0.5], [0.4, 0.4, 0.9, 0.9], [0.0, 0.5, 0.3, 1.0]])
    gt = tf.constant([[0.0, 0.0, 0.5, 0.5], [0.5, 0.5, 1.0, 1.0]])
    return detr_box_loss, (pred, gt, tf.constant([True, False]))
