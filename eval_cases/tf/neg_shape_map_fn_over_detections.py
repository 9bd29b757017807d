"""Source: https://github.com/tensorflow/tensorflow/issues/109648 (near miss: the same tf.map_fn over detection boxes compiles under jit_compile when the box tensor is not empty)."""
import tensorflow as tf


def box_area(box):
    y0, x0, y1, x1 = tf.unstack(box)
    return tf.maximum(y1 - y0, 0.0) * tf.maximum(x1 - x0, 0.0)


@tf.function(jit_compile=True)
def total_detected_area(boxes, image_area):
    areas = tf.map_fn(box_area, boxes)
    return tf.reduce_sum(areas) / image_area


# --- oracle ---
def ENTRY():
    return total_detected_area, (tf.constant([[0.0, 0.0, 2.0, 3.0], [1.0, 1.0, 4.0, 2.0]]), tf.constant(64.0))
