"""Source: https://github.com/tensorflow/tensorflow/issues/41488 (what compiles: `tf.image.non_max_suppression_padded` with `pad_to_max_output_size=True`, the fixed-size NMS that has an XLA kernel; the caller masks the padded slots with the returned count). Single-class detector head whose jit-compiled predict function uses padded NMS."""
import tensorflow as tf

NUM_ANCHORS = 12
MAX_DETECTIONS = 5


class BoxHead(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.backbone = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")
        self.box = tf.keras.layers.Dense(NUM_ANCHORS * 4)
        self.score = tf.keras.layers.Dense(NUM_ANCHORS)

    def call(self, image):
        feat = tf.reduce_mean(self.backbone(image), axis=[1, 2])
        boxes = tf.sigmoid(tf.reshape(self.box(feat), [-1, NUM_ANCHORS, 4]))
        boxes = tf.concat([tf.minimum(boxes[..., :2], boxes[..., 2:]), tf.maximum(boxes[..., :2], boxes[..., 2:])], -1)
        return boxes, tf.sigmoid(self.score(feat))


model = BoxHead()


@tf.function(jit_compile=True)
def detect(image):
    boxes, scores = model(image)
    keep, count = tf.image.non_max_suppression_padded(
        boxes[0], scores[0], max_output_size=MAX_DETECTIONS, iou_threshold=0.5, pad_to_max_output_size=True)
    valid = tf.range(MAX_DETECTIONS) < count
    return tf.gather(boxes[0], keep), tf.where(valid, tf.gather(scores[0], keep), 0.0)


# --- oracle ---
WRAP = False


def ENTRY():
    image = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32), [2, 8, 8, 3])[:1] / 384.0
    return detect, (image,)
