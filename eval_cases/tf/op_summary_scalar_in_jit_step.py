"""Source: https://github.com/tensorflow/tensorflow/issues/45940 (XLA around the whole train step: "only gotchas were tf.summary statements and tf metrics"): a summary written inside the compiled step."""
import tempfile

import tensorflow as tf


class Trainer:
    def __init__(self):
        self.writer = tf.summary.create_file_writer(tempfile.mkdtemp())
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        self.opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, x, y, step):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        with self.writer.as_default():
            tf.summary.scalar("loss", loss, step=step)  # XLA: op
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, (tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[1.0], [2.0]]), tf.constant(0, tf.int64))
