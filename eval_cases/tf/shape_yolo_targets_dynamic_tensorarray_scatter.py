"""Source: https://github.com/tensorflow/tensorflow/issues/67323 (YOLOv3's `transform_targets_for_output` loops over images and boxes with `tf.range`, skips padding boxes with `continue`, and collects scatter indexes in `TensorArray(..., dynamic_size=True)` before one `tensor_scatter_nd_update`; the number of written rows depends on the data)."""
import tensorflow as tf

GRID = 4


def transform_targets_for_output(y_true, anchor_idxs):
    n = tf.shape(y_true)[0]
    y_true_out = tf.zeros((n, GRID, GRID, tf.shape(anchor_idxs)[0], 6))
    anchor_idxs = tf.cast(anchor_idxs, tf.int32)
    indexes = tf.TensorArray(tf.int32, 1, dynamic_size=True)  # XLA: shape
    updates = tf.TensorArray(tf.float32, 1, dynamic_size=True)
    idx = 0
    for i in tf.range(n):
        for j in tf.range(tf.shape(y_true)[1]):
            if tf.equal(y_true[i][j][2], 0):
                continue
            anchor_eq = tf.equal(anchor_idxs, tf.cast(y_true[i][j][5], tf.int32))
            if tf.reduce_any(anchor_eq):
                box = y_true[i][j][0:4]
                box_xy = (y_true[i][j][0:2] + y_true[i][j][2:4]) / 2
                anchor_idx = tf.cast(tf.where(anchor_eq), tf.int32)
                grid_xy = tf.cast(box_xy // (1 / GRID), tf.int32)
                indexes = indexes.write(idx, [i, grid_xy[1], grid_xy[0], anchor_idx[0][0]])
                updates = updates.write(idx, [box[0], box[1], box[2], box[3], 1, y_true[i][j][4]])
                idx += 1
    return tf.tensor_scatter_nd_update(y_true_out, indexes.stack(), updates.stack())


# --- oracle ---
def ENTRY():
    y_true = tf.constant([[[0.1, 0.1, 0.4, 0.4, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
                          [[0.5, 0.5, 0.9, 0.8, 2.0, 1.0], [0.2, 0.6, 0.3, 0.9, 0.0, 0.0]]])
    return transform_targets_for_output, (y_true, tf.constant([0, 1]))
