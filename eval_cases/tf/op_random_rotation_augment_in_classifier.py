"""Source: https://github.com/tensorflow/tensorflow/issues/100865 (a classifier with a `RandomRotation` augmentation layer fails under jit_compile: the rotation lowers to ImageProjectiveTransformV3, which had no XLA kernel)."""
import tensorflow as tf


class AugmentedClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.rotate = tf.keras.layers.RandomRotation(0.1, seed=7)
        self.conv = tf.keras.layers.Conv2D(4, 3, activation="relu")
        self.pool = tf.keras.layers.GlobalAveragePooling2D()
        self.out = tf.keras.layers.Dense(3)

    def call(self, images, training=False):
        x = self.rotate(images, training=training)  # XLA: op
        return self.out(self.pool(self.conv(x)))


class Trainer:
    def __init__(self):
        self.model = AugmentedClassifier()
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def train_step(self, images, labels):
        with tf.GradientTape() as tape:
            logits = self.model(images, training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
        variables = self.model.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False
COMPARE = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32), [2, 8, 8, 3]) / 384.0
    return t.train_step, (images, tf.constant([0, 2]))
