"""Source: https://github.com/tensorflow/tensorflow/issues/57575 ("Make tf.image.resize gradient computation compatible with XLA compilation": ResizeBilinearGrad with half_pixel_centers=True was not implemented in 2022; on TF 2.21 XLA:CPU training an FPN-style model through a bilinear upsample compiles)."""
import tensorflow as tf


class TinyFPN(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.down = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")
        self.lateral = tf.keras.layers.Conv2D(4, 1)
        self.head = tf.keras.layers.Conv2D(1, 1)

    def call(self, images):
        coarse = self.down(images)
        up = tf.image.resize(coarse, tf.shape(images)[1:3], method="bilinear")
        return self.head(up + self.lateral(images))


class Trainer:
    def __init__(self):
        self.model = TinyFPN()
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def train_step(self, images, targets):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(images) - targets))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32), [2, 8, 8, 3]) / 384.0
    return t.train_step, (images, tf.ones([2, 8, 8, 1]) * 0.5)
