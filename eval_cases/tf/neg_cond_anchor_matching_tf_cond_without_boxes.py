"""Source: https://github.com/keras-team/keras/issues/13013 (anchor matching wrapped in `tf.cond(tf.greater(N, 0), match, only_background)` so that images without ground-truth boxes get all-background targets; both branches return the same shape, so it compiles)."""
import tensorflow as tf


def iou(anchors, boxes):
    lt = tf.maximum(anchors[:, None, :2], boxes[None, :, :2])
    rb = tf.minimum(anchors[:, None, 2:], boxes[None, :, 2:])
    inter = tf.reduce_prod(tf.maximum(rb - lt, 0.0), axis=-1)
    area_a = tf.reduce_prod(anchors[:, 2:] - anchors[:, :2], axis=-1)
    area_b = tf.reduce_prod(boxes[:, 2:] - boxes[:, :2], axis=-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-6)


def match_anchors(anchors, gt_boxes, num_valid, positive_threshold=0.5):
    only_background = tf.zeros([tf.shape(anchors)[0]], tf.int32)

    def match():
        overlaps = iou(anchors, gt_boxes)
        valid = tf.range(tf.shape(gt_boxes)[0]) < num_valid
        overlaps = tf.where(valid[None, :], overlaps, -1.0)
        best = tf.reduce_max(overlaps, axis=1)
        return tf.cast(best >= positive_threshold, tf.int32)

    return tf.cond(tf.greater(num_valid, 0), match, lambda: only_background)


# --- oracle ---
def ENTRY():
    anchors = tf.constant([[0.0, 0.0, 0.5, 0.5], [0.5, 0.5, 1.0, 1.0], [0.2, 0.2, 0.7, 0.7]])
    gt = tf.constant([[0.0, 0.0, 0.45, 0.5], [0.0, 0.0, 0.0, 0.0]])
    return match_anchors, (anchors, gt, tf.constant(1))


def ALT_ARGS():
    anchors = tf.constant([[0.0, 0.0, 0.5, 0.5], [0.5, 0.5, 1.0, 1.0], [0.2, 0.2, 0.7, 0.7]])
    return [(anchors, tf.zeros([2, 4]), tf.constant(0))]
