"""Source: https://github.com/tensorflow/tensorflow/issues/41761 ("Detected unsupported operations ... on XLA_CPU_JIT: NonMaxSuppressionV2" compiling MTCNN with tfcompile in 2020; on TF 2.21 tf.image.non_max_suppression in a detection head compiles under jit_compile)."""
import tensorflow as tf


class DetectionHead(tf.keras.layers.Layer):
    def __init__(self, max_detections=3, **kwargs):
        super().__init__(**kwargs)
        self.max_detections = max_detections
        self.score = tf.keras.layers.Dense(1)

    def call(self, boxes, features):
        scores = tf.squeeze(tf.sigmoid(self.score(features)), -1)
        keep = tf.image.non_max_suppression(boxes, scores, self.max_detections, iou_threshold=0.5)
        return tf.gather(boxes, keep), tf.gather(scores, keep)


head = DetectionHead()


def detect(boxes, features):
    kept_boxes, kept_scores = head(boxes, features)
    return tf.reduce_sum(kept_boxes * kept_scores[:, None])


# --- oracle ---
def ENTRY():
    boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [2.0, 2.0, 3.0, 3.0], [0.5, 0.5, 2.5, 2.5]])
    features = tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]) / 8.0
    return detect, (boxes, features)
