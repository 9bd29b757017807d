"""Source: https://github.com/tensorflow/tensorflow/issues/117245 (tf.image.non_max_suppression called with empty boxes and scores under jit_compile crashes the process on TF 2.21 instead of returning an empty selection; here the candidate set is empty after upstream filtering)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def select_detections(boxes, scores):
    keep = tf.image.non_max_suppression(boxes, scores, max_output_size=5, iou_threshold=0.5,  # XLA: shape
                                        score_threshold=-1.0)
    return tf.gather(boxes, keep)


# --- oracle ---
def ENTRY():
    return select_detections, (tf.zeros([0, 4]), tf.zeros([0]))
