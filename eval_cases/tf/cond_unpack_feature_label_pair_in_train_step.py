"""Source: https://github.com/tensorflow/tensorflow/issues/59510 ("Iterating over a symbolic tf.Tensor is not allowed" when a training step unpacks features and labels from one stacked batch tensor; eager iterates the tensor's first axis, traced code cannot)."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(3)])
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    def train_step(self, batch):
        features, targets = batch  # XLA: cond
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(features) - targets))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    batch = tf.reshape(tf.range(24, dtype=tf.float32), [2, 4, 3]) / 24.0
    return t.train_step, (batch,)
