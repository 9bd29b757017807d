"""Source: https://github.com/tensorflow/tensorflow/issues/100521 (a detection head pools region features with `tf.image.crop_and_resize`; under jit_compile the CropAndResize op has no XLA kernel, a PR adding one was closed unmerged)."""
import tensorflow as tf


class RoIHead(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.backbone = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")
        self.cls = tf.keras.layers.Dense(3)

    def call(self, images, boxes, box_indices):
        features = self.backbone(images)
        rois = tf.image.crop_and_resize(features, boxes, box_indices, crop_size=[3, 3])  # XLA: op
        return self.cls(tf.reshape(rois, [tf.shape(boxes)[0], -1]))


# --- oracle ---
_KEEP = []


def ENTRY():
    model = RoIHead()
    _KEEP.append(model)
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32), [2, 8, 8, 3]) / 384.0
    boxes = tf.constant([[0.0, 0.0, 0.5, 0.5], [0.25, 0.25, 1.0, 1.0], [0.1, 0.3, 0.6, 0.9]])
    return model, (images, boxes, tf.constant([0, 1, 1]))
