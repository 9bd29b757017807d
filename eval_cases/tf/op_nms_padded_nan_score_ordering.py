"""Source: https://github.com/tensorflow/tensorflow/issues/119358 (tf.image.non_max_suppression_padded under XLA sorts a NaN score first while eager places it after the valid high scores: the compiled detector returns boxes in a different order)."""
import tensorflow as tf


class ScoredBoxes(tf.keras.layers.Layer):
    def call(self, boxes, logits):
        scores = tf.sigmoid(logits) * tf.math.sqrt(tf.maximum(logits, 0.0) / tf.maximum(logits, 0.0))
        keep, n_valid = tf.image.non_max_suppression_padded(boxes, scores, max_output_size=3,  # XLA: op
                                                            iou_threshold=0.5, score_threshold=float("-inf"),
                                                            pad_to_max_output_size=True)
        return keep, n_valid


layer = ScoredBoxes()


def detect(boxes, logits):
    return layer(boxes, logits)


# --- oracle ---
def ENTRY():
    boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0], [5.0, 5.0, 6.0, 6.0]])
    return detect, (boxes, tf.constant([9.0, 2.0, 0.0, 1.0]))
