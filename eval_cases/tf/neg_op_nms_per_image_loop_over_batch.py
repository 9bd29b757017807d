"""Source: https://github.com/tensorflow/tensorflow/issues/105643 (XLA compilation failed for a loop over the batch that runs tf.image.non_max_suppression per image inside a jit-compiled model; with a static batch size the Python loop unrolls and the per-image NMS compiles on TF 2.21 XLA:CPU)."""
import tensorflow as tf


class BatchedDetector(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.box_head = tf.keras.layers.Dense(4 * 5)
        self.score_head = tf.keras.layers.Dense(5)

    def call(self, features):
        boxes = tf.reshape(self.box_head(features), [-1, 5, 4])
        scores = tf.sigmoid(self.score_head(features))
        selected = []
        for i in range(features.shape[0]):
            keep = tf.image.non_max_suppression(boxes[i], scores[i], max_output_size=2)
            selected.append(tf.reduce_sum(tf.gather(scores[i], keep)))
        return tf.stack(selected)


model = BatchedDetector()


def forward(features):
    return model(features)


# --- oracle ---
def ENTRY():
    return forward, (tf.reshape(tf.range(12, dtype=tf.float32), [2, 6]) / 12.0,)
