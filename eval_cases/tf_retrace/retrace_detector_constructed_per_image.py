"""A detector object (with a jit-compiled forward built in __init__) constructed for every image.

Rebuilt from ipazc/mtcnn#82 (https://github.com/ipazc/mtcnn/issues/82): "This happens when you
call the constructor MTCNN() inside a loop (or within a function that you're repeatedly
calling)"; each new instance holds a new tf.function with an empty trace cache.
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


def detect_faces(image):
    detector = Detector()  # XLA: retrace
    return detector.detect(image)


# --- oracle ---
WRAP = False


def ENTRY():
    return detect_faces, (tf.constant([[1.0, 2.0], [3.0, 4.0]]),)


def ALT_ARGS():
    return [(tf.constant([[0.0, 2.0], [1.0, 4.0]]),), (tf.constant([[1.0, 1.0], [3.0, 3.0]]),)]
