"""Source: https://github.com/tensorflow/tensorflow/issues/55194 (a near miss of the report: the translation augmentation written with `tf.roll` by the layer's configured offsets instead of the `ImageProjectiveTransformV3` op, which XLA compiles). Classifier training step with a fixed-offset shift augmentation."""
import tensorflow as tf


class ShiftAugment(tf.keras.layers.Layer):
    def __init__(self, dy=1, dx=2, **kwargs):
        super().__init__(**kwargs)
        self.dy = dy
        self.dx = dx

    def call(self, images):
        return tf.roll(images, shift=[self.dy, self.dx], axis=[1, 2])


class Trainer:
    def __init__(self):
        self.augment = ShiftAugment()
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
            tf.keras.layers.Dense(3),
        ])
        self.model.build([None, 8, 8, 1])
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, images, labels):
        images = self.augment(images)
        with tf.GradientTape() as tape:
            logits = self.model(images)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(128, dtype=tf.float32), [2, 8, 8, 1]) / 128.0
    return t.train_step, (images, tf.constant([0, 2]))
