"""Source: https://github.com/tensorflow/tpu/issues/584 ("Support for tf.where without x and y arguments": to list the indices where a boolean is True on TPU, the reporter grows a tensor with `tf.concat` inside a `tf.while_loop` whose shape invariant leaves the row count open, and XLA cannot compile a loop whose carried shape changes). Here a detector's box-regression loss collects the indices of its positive anchors the same way inside the jit-compiled loss."""
import tensorflow as tf

NUM_ANCHORS = 12


def positive_indices(is_pos):
    def cond(i, found):
        return i < NUM_ANCHORS

    def body(i, found):
        found = tf.cond(is_pos[i], lambda: tf.concat([found, [i]], axis=0), lambda: found)
        return i + 1, found

    start = [tf.constant(0), tf.zeros([0], tf.int32)]
    invariants = [tf.TensorShape([]), tf.TensorShape([None])]
    _, found = tf.while_loop(cond, body, start, shape_invariants=invariants)  # XLA: shape
    return found


@tf.function(jit_compile=True)
def positive_box_loss(iou, box_pred, box_target):
    is_pos = tf.reduce_max(iou, axis=-1) > 0.5
    idx = positive_indices(is_pos)
    diff = tf.gather(box_pred, idx) - tf.gather(box_target, idx)
    return tf.reduce_sum(tf.abs(diff)) / tf.maximum(tf.cast(tf.size(idx), tf.float32), 1.0)


# --- oracle ---
def ENTRY():
    iou = tf.reshape(tf.range(NUM_ANCHORS * 3, dtype=tf.float32), [NUM_ANCHORS, 3]) / 40.0
    pred = tf.reshape(tf.range(NUM_ANCHORS * 4, dtype=tf.float32), [NUM_ANCHORS, 4]) / 10.0
    target = tf.ones([NUM_ANCHORS, 4])
    return positive_box_loss, (iou, pred, target)
