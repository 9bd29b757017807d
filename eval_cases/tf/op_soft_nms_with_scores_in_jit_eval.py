"""Source: https://github.com/google/automl/issues/1034 ("No registered 'NonMaxSuppressionV5' OpKernel for XLA_TPU_JIT": EfficientDet evaluation uses soft-NMS through tf.image.non_max_suppression_with_scores inside the compiled graph)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def soft_nms_postprocess(boxes, class_scores):
    scores = tf.reduce_max(class_scores, axis=-1)
    keep, rescored = tf.image.non_max_suppression_with_scores(boxes, scores, max_output_size=3,  # XLA: op
                                                              iou_threshold=0.5, soft_nms_sigma=0.3)
    return tf.gather(boxes, keep), rescored


# --- oracle ---
def ENTRY():
    boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [2.0, 2.0, 3.0, 3.0]])
    class_scores = tf.constant([[0.9, 0.1], [0.2, 0.8], [0.6, 0.3]])
    return soft_nms_postprocess, (boxes, class_scores)
