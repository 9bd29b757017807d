"""The detector of ipazc/mtcnn#82 built once at module level and reused for every image.

Counterpart of https://github.com/ipazc/mtcnn/issues/82 (the maintainer's advice: construct it
outside the loop).
"""
import tensorflow as tf


class Detector:
    def __init__(self):
        self.kernel = tf.constant([[0.5, -0.5], [0.25, 0.75]])
        self._forward = tf.function(self.forward, jit_compile=True)

    def forward(self, image):
        return tf.reduce_max(tf.matmul(image, self.kernel), axis=-1)

    def detect(self, image):
        return self._forward(image)


DETECTOR = Detector()


def detect_faces(image):
    return DETECTOR.detect(image)


# --- oracle ---
WRAP = False


def ENTRY():
    return detect_faces, (tf.constant([[1.0, 2.0], [3.0, 4.0]]),)


def ALT_ARGS():
    return [(tf.constant([[0.0, 2.0], [1.0, 4.0]]),), (tf.constant([[1.0, 1.0], [3.0, 3.0]]),)]
