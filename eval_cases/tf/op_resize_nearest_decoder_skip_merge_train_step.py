"""Source: https://github.com/tensorflow/tensorflow/issues/60203 (ResizeNearestNeighborGrad has no XLA kernel): a segmentation decoder block that convolves the coarse features, upsamples them with method="nearest" and merges a skip connection, trained in a jit-compiled step."""
import tensorflow as tf


class DecoderBlock(tf.keras.layers.Layer):
    def __init__(self, channels):
        super().__init__()
        self.reduce = tf.keras.layers.Conv2D(channels, 1)
        self.skip = tf.keras.layers.Conv2D(channels, 1)

    def call(self, coarse, skip):
        reduced = self.reduce(coarse)
        up = tf.image.resize(reduced, tf.shape(skip)[1:3], method="nearest")  # XLA: op
        return tf.nn.relu(up + self.skip(skip))


class Trainer:
    def __init__(self):
        self.block = DecoderBlock(4)
        self.head = tf.keras.layers.Conv2D(1, 1)
        self.opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, coarse, skip, target):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.head(self.block(coarse, skip)) - target))
        variables = self.block.trainable_variables + self.head.trainable_variables
        self.opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    coarse = tf.reshape(tf.range(2 * 2 * 2 * 3, dtype=tf.float32) / 24.0, [2, 2, 2, 3])
    skip = tf.reshape(tf.range(2 * 4 * 4 * 2, dtype=tf.float32) / 64.0, [2, 4, 4, 2])
    return t.train_step, (coarse, skip, tf.ones([2, 4, 4, 1]))
