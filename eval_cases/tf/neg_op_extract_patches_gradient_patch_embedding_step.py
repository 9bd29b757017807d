"""Source: https://github.com/tensorflow/tensorflow/issues/59058 (training a model with a Dense layer followed by `tf.image.extract_patches` failed to JIT-compile in TF 2.11: the gradient used SparseTensorDenseMatMul; on TF 2.21 XLA:CPU the same train step compiles)."""
import tensorflow as tf


class PatchModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.pre = tf.keras.layers.Dense(2)
        self.head = tf.keras.layers.Dense(1)

    def call(self, images):
        x = self.pre(images)
        patches = tf.image.extract_patches(x, sizes=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                           rates=[1, 1, 1, 1], padding="VALID")
        return self.head(tf.reduce_mean(patches, axis=[1, 2]))


class Trainer:
    def __init__(self):
        self.model = PatchModel()
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, images, targets):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(images) - targets))
        variables = self.model.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 4 * 4 * 3, dtype=tf.float32), [2, 4, 4, 3]) / 96.0
    return t.train_step, (images, tf.constant([[0.5], [1.0]]))
