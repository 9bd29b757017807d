"""Source: https://github.com/tensorflow/tensorflow/issues/109648 (tf.map_fn over a zero-length tensor fails to compile under jit_compile: "Slice dim size 1 greater than dynamic slice dimension: 0" in TensorListGetItem, although the loop body never runs)."""
import tensorflow as tf


def box_area(box):
    y0, x0, y1, x1 = tf.unstack(box)
    return tf.maximum(y1 - y0, 0.0) * tf.maximum(x1 - x0, 0.0)


@tf.function(jit_compile=True)
def total_detected_area(boxes, image_area):
    areas = tf.map_fn(box_area, boxes)  # XLA: shape
    return tf.reduce_sum(areas) / image_area


# --- oracle ---
def ENTRY():
    return total_detected_area, (tf.zeros([0, 4]), tf.constant(64.0))
