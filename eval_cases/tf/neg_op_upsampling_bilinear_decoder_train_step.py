"""Source: https://github.com/tensorflow/tensorflow/issues/60203 (near miss: UpSampling2D with interpolation="bilinear", whose gradient has an XLA kernel): a small decoder trained in a jit-compiled step."""
import tensorflow as tf
from tensorflow.keras import layers


class Trainer:
    def __init__(self):
        self.decoder = tf.keras.Sequential([
            layers.Conv2D(4, 3, padding="same", activation="relu"),
            layers.UpSampling2D(2, interpolation="bilinear"),
            layers.Conv2D(1, 3, padding="same"),
        ])
        self.opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, x, target):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.decoder(x) - target))
        grads = tape.gradient(loss, self.decoder.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.decoder.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(2 * 4 * 4 * 2, dtype=tf.float32) / 64.0, [2, 4, 4, 2])
    return t.train_step, (x, tf.ones([2, 8, 8, 1]))
