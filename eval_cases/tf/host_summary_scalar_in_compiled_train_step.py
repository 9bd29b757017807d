"""Source: https://github.com/tensorflow/tensorflow/issues/39798 ("Unable to log scalar summaries in XLA": `tf.summary.scalar` inside a jit_compile function needs WriteSummary and string constants, which XLA cannot compile; here the train step logs its loss to the writer set up by the trainer)."""
import tempfile

import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
        self.optimizer = tf.keras.optimizers.SGD(0.05)
        self.writer = tf.summary.create_file_writer(tempfile.mkdtemp())
        self.step = tf.Variable(0, dtype=tf.int64)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        with self.writer.as_default(step=self.step):
            tf.summary.scalar("train/loss", loss)  # XLA: host
        self.step.assign_add(1)
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return t.train_step, (x, tf.reduce_sum(x, axis=1, keepdims=True))
