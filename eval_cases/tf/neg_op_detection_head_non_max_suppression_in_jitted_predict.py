"""Source: https://github.com/tensorflow/tensorflow/issues/41488 ("XLA NMS bug": a detector's post-processing with `tf.image.non_max_suppression` inside a compiled function is "not compilable"; only the padded variant, `NonMaxSuppressionV4` with `pad_to_max_output_size=True`, has an XLA kernel, because the unpadded result has a data-dependent length). Here a single-class detector head whose jit-compiled predict function keeps the boxes NMS selects. Written as the failing case; does not reproduce on TF 2.21 CPU (the unpadded `tf.image.non_max_suppression` compiles under `jit_compile` and returns what eager execution returns), so it is a negative."""
import tensorflow as tf

NUM_ANCHORS = 12


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
    keep = tf.image.non_max_suppression(boxes[0], scores[0], max_output_size=5, iou_threshold=0.5)
    return tf.gather(boxes[0], keep), tf.gather(scores[0], keep)


# --- oracle ---
WRAP = False


def ENTRY():
    image = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32), [2, 8, 8, 3])[:1] / 384.0
    return detect, (image,)
